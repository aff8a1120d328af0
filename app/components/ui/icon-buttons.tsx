import { Plus } from "lucide-react";
import type { ButtonHTMLAttributes } from "react";

// Apart from buttons.tsx: the anonymous pitch page's inlined stylesheet is generated from the files it renders
// (app/pitch-client/pitch.css), and it renders none of these.

/** A small icon-only link or button with a border (the open-pitch link); 40 px square, a comfortable touch target. */
export const iconButtonClass =
  "inline-flex size-10 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-50 hover:text-slate-900";

/** A borderless icon-only button, named by `label` (also its tooltip). */
export function IconButton({
  label,
  tone = "neutral",
  className = "",
  children,
  ...button
}: { label: string; tone?: "neutral" | "danger" } & ButtonHTMLAttributes<HTMLButtonElement>) {
  const colors =
    tone === "danger" ? "text-slate-500 hover:bg-red-50 hover:text-red-600" : "text-slate-500 hover:bg-slate-100 hover:text-slate-900";
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className={`inline-flex size-10 shrink-0 items-center justify-center rounded-lg transition-colors disabled:pointer-events-none disabled:opacity-35 ${colors} ${className}`}
      {...button}
    >
      {children}
    </button>
  );
}

/** A dashed "+ Add …" button under a list. */
export function AddButton({ children, ...button }: ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="button"
      className="inline-flex items-center gap-1.5 rounded-lg border border-dashed border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 transition-colors hover:border-brand-500 hover:bg-brand-50 hover:text-brand-700 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:border-slate-300 disabled:hover:bg-white disabled:hover:text-slate-700"
      {...button}
    >
      <Plus aria-hidden className="size-4" />
      {children}
    </button>
  );
}
