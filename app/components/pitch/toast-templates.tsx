/**
 * The pitch page's toasts (and /saved's) as markup for `showToast` to clone, in both renderers (decision 47): they
 * look like the rest of the app's toasts (sonner, rich colours as app/app.css sets them for contrast), colours,
 * icon and close control alike. Markup rather than strings in the script keeps the script small.
 */
const TOAST_STYLES = {
  success: "border-[#bffcd9] bg-[#ecfdf3] text-[#008236]",
  error: "border-[#ffe0e1] bg-[#fff0f0] text-[#c10007]",
} as const;

const ICON_PATHS = {
  success:
    "M10 18a8 8 0 100-16 8 8 0 000 16zm3.857-9.809a.75.75 0 00-1.214-.882l-3.483 4.79-1.88-1.88a.75.75 0 10-1.06 1.061l2.5 2.5a.75.75 0 001.137-.089l4-5.5z",
  error: "M18 10a8 8 0 11-16 0 8 8 0 0116 0zm-8-5a.75.75 0 01.75.75v4.5a.75.75 0 01-1.5 0v-4.5A.75.75 0 0110 5zm0 10a1 1 0 100-2 1 1 0 000 2z",
} as const;

export type ToastKind = keyof typeof TOAST_STYLES;

/** Where the pitch page's toasts appear (`showToast`), with their templates: rendered by both renderers' pages. */
export function PitchToasts() {
  return (
    <>
      <section id="pitch-toasts" aria-label="Notifications" aria-live="polite" className="pointer-events-none fixed inset-x-0 top-3 z-[60] flex flex-col items-center gap-2 px-4" />
      <ToastTemplates />
    </>
  );
}

/** Hidden elements rather than `<template>`s: React can hydrate them (a `<template>`'s content is not its children). */
function ToastTemplates() {
  return (
    <div hidden data-toast-templates>
      {(Object.keys(TOAST_STYLES) as ToastKind[]).map((kind) => (
        <div key={kind} data-toast={kind} className={`pointer-events-auto relative flex w-full max-w-[356px] items-center gap-1.5 rounded-lg border p-4 text-[13px] font-medium shadow-lg ${TOAST_STYLES[kind]}`}>
          <svg aria-hidden="true" viewBox="0 0 20 20" width="20" height="20" fill="currentColor" className="shrink-0">
            <path fillRule="evenodd" clipRule="evenodd" d={ICON_PATHS[kind]} />
          </svg>
          <p />
          <button
            type="button"
            aria-label="Close toast"
            className="absolute -top-1.5 -left-1.5 flex size-5 items-center justify-center rounded-full border border-current/20 bg-inherit"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" width="12" height="12" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round">
              <path d="M18 6 6 18M6 6l12 12" />
            </svg>
          </button>
        </div>
      ))}
    </div>
  );
}
