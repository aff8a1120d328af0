import { keepDialogToasts } from "./toasts";

/**
 * Where focus goes when a dialog opens: with a mouse or trackpad the first field (`data-autofocus`); on a touch
 * screen the sheet itself, so the on-screen keyboard does not cover it before the visitor has read it.
 */
export function focusDialogStart(content: HTMLElement): void {
  const finePointer = matchMedia("(pointer: fine)").matches;
  const first = finePointer ? content.querySelector<HTMLElement>("[data-autofocus]") : null;
  (first ?? content).focus({ preventScroll: true });
}

/**
 * Shows a pitch dialog modal (the rest of the page inert, the page behind it not scrolling) and calls `dismiss` when
 * the visitor asks to close it: Escape, a tap on the overlay, or the browser closing it itself (a second Escape
 * with no tap in between is not cancelable). Closing is the caller's: it changes the address, and the address
 * decides what is shown. Returns the function that takes it down again.
 */
export function showDialogModal(dialog: HTMLDialogElement, dismiss: () => void): () => void {
  // The server rendered it open but not modal.
  dialog.removeAttribute("open");
  dialog.showModal();
  const scroller = document.documentElement;
  scroller.style.overflow = "hidden";
  const onCancel = (event: Event) => {
    event.preventDefault();
    dismiss();
  };
  const onClick = (event: MouseEvent) => (event.target as Element).closest("[data-dialog-overlay]") && dismiss();
  let releasing = false;
  const onClose = () => {
    // Only a dialog the browser has closed: a close event queued before it was shown modal does not count.
    if (!releasing && !dialog.open) dismiss();
  };
  dialog.addEventListener("cancel", onCancel);
  dialog.addEventListener("click", onClick);
  dialog.addEventListener("close", onClose);
  return () => {
    releasing = true;
    dialog.removeEventListener("cancel", onCancel);
    dialog.removeEventListener("click", onClick);
    dialog.removeEventListener("close", onClose);
    keepDialogToasts(dialog);
    if (dialog.open) dialog.close();
    scroller.style.overflow = "";
  };
}
