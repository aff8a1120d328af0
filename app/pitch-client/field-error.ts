/**
 * An input's error state as assistive technology reads it: `aria-invalid`, and its error line (an id ending in
 * `-error`) first among the ids it is described by, before any hint it already names.
 */
export function markInvalid(input: HTMLElement, errorId: string): void {
  input.setAttribute("aria-invalid", "true");
  const others = (input.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && id !== errorId);
  // The error first, then the hints, as the server-rendered fields list them.
  input.setAttribute("aria-describedby", [errorId, ...others].join(" "));
}

/** Undoes `markInvalid`: the input is described by its hints alone. */
export function markValid(input: HTMLElement): void {
  input.removeAttribute("aria-invalid");
  const hints = (input.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && !id.endsWith("-error")).join(" ");
  if (hints) input.setAttribute("aria-describedby", hints);
  else input.removeAttribute("aria-describedby");
}
