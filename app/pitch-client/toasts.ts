/** The React page's toasts (sonner, rich colours as app/app.css sets them for contrast), drawn without it: colours, icon and close control alike. */
const TOAST_STYLES = {
  success: "border-[#bffcd9] bg-[#ecfdf3] text-[#008236]",
  error: "border-[#ffe0e1] bg-[#fff0f0] text-[#c10007]",
} as const;

const ICON_PATHS = {
  success:
    "M10 18a8 8 0 100-16 8 8 0 000 16zm3.857-9.809a.75.75 0 00-1.214-.882l-3.483 4.79-1.88-1.88a.75.75 0 10-1.06 1.061l2.5 2.5a.75.75 0 001.137-.089l4-5.5z",
  error: "M18 10a8 8 0 11-16 0 8 8 0 0116 0zm-8-5a.75.75 0 01.75.75v4.5a.75.75 0 01-1.5 0v-4.5A.75.75 0 0110 5zm0 10a1 1 0 100-2 1 1 0 000 2z",
} as const;

const CLOSE_ICON =
  '<svg aria-hidden="true" viewBox="0 0 24 24" width="12" height="12" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"><path d="M18 6 6 18M6 6l12 12"/></svg>';

/** A button in a toast (Undo, say): tapping it runs `run` and closes the toast. */
export type ToastAction = { label: string; run: () => void };

/** A short message at the top of the screen for a few seconds. */
export function showToast(kind: keyof typeof TOAST_STYLES, message: string, durationMs = 4_000, action?: ToastAction): void {
  const region = document.getElementById("pitch-toasts");
  if (!region) return;
  const toast = document.createElement("div");
  toast.className = `pointer-events-auto relative flex w-full max-w-[356px] items-center gap-1.5 rounded-lg border p-4 text-[13px] font-medium shadow-lg ${TOAST_STYLES[kind]}`;
  toast.innerHTML = `<svg aria-hidden="true" viewBox="0 0 20 20" width="20" height="20" fill="currentColor" class="shrink-0"><path fill-rule="evenodd" clip-rule="evenodd" d="${ICON_PATHS[kind]}"/></svg><p></p><button type="button" aria-label="Close toast" class="absolute -left-1.5 -top-1.5 flex size-5 items-center justify-center rounded-full border border-current/20 bg-inherit">${CLOSE_ICON}</button>`;
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
