import { LoaderCircle } from "lucide-react";

/** The save button, kept in view at the bottom of the screen while the founder scrolls the form. */
export function SaveBar({ isEdit, busy }: { isEdit: boolean; busy: boolean }) {
  return (
    <div className="sticky bottom-0 z-10 -mx-4 border-t border-slate-200 bg-white/95 px-4 pb-[calc(0.75rem+env(safe-area-inset-bottom))] pt-3 backdrop-blur sm:bottom-4 sm:mx-0 sm:rounded-2xl sm:border sm:pb-3 sm:shadow-lg">
      <div className="flex items-center justify-between gap-3">
        <p className="hidden text-sm text-slate-600 sm:block">
          {isEdit ? "Changes go live on your pitch page when you save." : "You can add tracked QR codes after creating the project."}
        </p>
        <button
          type="submit"
          disabled={busy}
          className="inline-flex w-full items-center justify-center gap-2 rounded-xl bg-brand-600 px-5 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto sm:py-2.5 sm:text-sm"
        >
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
          {busy ? "Saving..." : isEdit ? "Update Project" : "Create Project"}
        </button>
      </div>
    </div>
  );
}
