/**
 * How long a confirmation's Done stays deaf after the confirmation replaces its form (decision 84). Done sits where
 * the submit button was, so the second tap of a double tap on 'Request Intro' would otherwise close the confirmation
 * before the visitor has read it.
 */
export const CONFIRMATION_GUARD_MS = 1_000;

/**
 * Makes `done` ignore taps for CONFIRMATION_GUARD_MS (marked `aria-disabled` meanwhile), for both renderers: a
 * listener on the element itself runs before the dialog's and React's, and stops the tap there. Returns the function
 * that lifts the guard early (a React effect's cleanup).
 */
export function guardConfirmationClose(done: HTMLElement): () => void {
  done.setAttribute("aria-disabled", "true");
  const swallow = (event: Event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  done.addEventListener("click", swallow, { capture: true });
  const lift = () => {
    clearTimeout(timer);
    done.removeEventListener("click", swallow, { capture: true });
    done.removeAttribute("aria-disabled");
  };
  const timer = setTimeout(lift, CONFIRMATION_GUARD_MS);
  return lift;
}
