import type { ToastKind } from "~/components/pitch/toast-templates";

/** A button in a toast (Undo, say): tapping it runs `run` and closes the toast. */
export type ToastAction = { label: string; run: () => void };

/** A short message at the top of the screen for a few seconds, cloned from the page's toast template (`ToastTemplates`). */
export function showToast(kind: ToastKind, message: string, durationMs = 4_000, action?: ToastAction): void {
  const region = document.getElementById("pitch-toasts");
  const toast = document.querySelector<HTMLTemplateElement>(`template[data-toast="${kind}"]`)?.content.firstElementChild?.cloneNode(true) as HTMLElement | undefined;
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
