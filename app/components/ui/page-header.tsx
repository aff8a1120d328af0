import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** The page's title row: heading, optional subtitle, and actions that wrap below on narrow phones. */
export function PageHeader({ title, subtitle, actions, before }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; before?: ReactNode }) {
  return (
    <header className="mb-6 sm:mb-8">
      {before}
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-3">
        <div className="min-w-0 flex-1 basis-72">
          <h1 className="text-2xl font-bold tracking-tight text-balance break-words text-slate-950 sm:text-3xl">{title}</h1>
          {subtitle ? <p className="mt-1 text-sm text-slate-600 sm:text-base">{subtitle}</p> : null}
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
      </div>
    </header>
  );
}

/** A dashed box with an icon, a line of bold text, a hint and an optional action. */
export function EmptyState({
  icon: Icon,
  title,
  text,
  action,
  compact,
}: {
  icon: LucideIcon;
  title: string;
  text?: ReactNode;
  action?: ReactNode;
  compact?: boolean;
}) {
  return (
    <div
      className={`flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white text-center ${compact ? "px-5 py-8" : "px-6 py-12 sm:py-16"}`}
    >
      <span aria-hidden className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
        <Icon className="size-6" />
      </span>
      <p className="mt-4 font-semibold text-slate-900">{title}</p>
      {text ? <p className="mt-1 max-w-sm text-sm text-slate-600">{text}</p> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
