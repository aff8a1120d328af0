import type { ToastKind } from "~/components/pitch/toast-templates";

/** A button in a toast (Undo, say): tapping it runs `run` and closes the toast. */
export type ToastAction = { label: string; run: () => void };

/**
 * A short message at the top of the screen for a few seconds, cloned from the page's toast template
 * (`PitchToasts`): the pitch page's one set of toasts, in both renderers.
 */
export function showToast(kind: ToastKind, message: string, durationMs = 4_000, action?: ToastAction): void {
  const region = toastRegion();
  const toast = document.querySelector(`[data-toast-templates] > [data-toast="${kind}"]`)?.cloneNode(true) as HTMLElement | undefined;
  if (!region || !toast) return;
  toast.querySelector("p")!.textContent = message;
  const remove = () => toast.remove();
  toast.querySelector("button")!.addEventListener("click", remove);
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "ml-auto shrink-0 rounded-md bg-white/70 px-2.5 py-1 font-semibold underline-offset-2 hover:underline";
    button.textContent = action.label;
    button.addEventListener("click", () => {
      remove();
      action.run();
    });
    toast.append(button);
  }
  region.append(toast);
  setTimeout(remove, durationMs);
}

const IN_DIALOG = "data-toasts-in-dialog";

/**
 * The page's toast region, or, while a modal dialog makes the rest of the page inert, a copy of it inside the
 * dialog, so that a toast is seen, read out and closable there (`keepDialogToasts` moves them out on close).
 */
function toastRegion(): HTMLElement | null {
  const region = document.getElementById("pitch-toasts");
  const dialog = document.querySelector("dialog:modal");
  if (!region || !dialog) return region;
  let inDialog = dialog.querySelector<HTMLElement>(`[${IN_DIALOG}]`);
  if (!inDialog) {
    inDialog = dialog.appendChild(region.cloneNode() as HTMLElement);
    inDialog.id = "";
    inDialog.toggleAttribute(IN_DIALOG);
  }
  return inDialog;
}

/** A dialog is closing: its toasts move on to the page's region and stay their time. */
export function keepDialogToasts(dialog: HTMLDialogElement): void {
  const inDialog = dialog.querySelector(`[${IN_DIALOG}]`);
  if (!inDialog) return;
  document.getElementById("pitch-toasts")?.append(...inDialog.children);
  inDialog.remove();
}
