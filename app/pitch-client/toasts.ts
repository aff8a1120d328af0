const TOAST_STYLES = {
  success: "border-emerald-200 bg-emerald-50 text-emerald-800",
  error: "border-red-200 bg-red-50 text-red-800",
  info: "border-slate-200 bg-white text-slate-800",
} as const;

/** A short message at the top of the screen, as the React page's toasts show it. */
export function showToast(kind: keyof typeof TOAST_STYLES, message: string, durationMs = 4_000): void {
  const region = document.getElementById("pitch-toasts");
  if (!region) return;
  const toast = document.createElement("p");
  toast.className = `pointer-events-auto w-full max-w-sm rounded-xl border px-4 py-3 text-sm font-semibold shadow-lg ${TOAST_STYLES[kind]}`;
  toast.textContent = message;
  region.append(toast);
  setTimeout(() => toast.remove(), durationMs);
}
