import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import type { ProjectStatus } from "~/db/schema";

export { primaryButtonClass, secondaryButtonClass } from "~/components/form-fields";

/** A small icon-only button (the open-pitch link); 40 px square, a comfortable touch target. */
export const iconButtonClass =
  "inline-flex size-10 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-50 hover:text-slate-900";

export const cardClass = "rounded-2xl border border-slate-200 bg-white shadow-sm";

/** SPEC.md section 2: published is green, anything else (a draft) is yellow. */
export function StatusBadge({ status }: { status: ProjectStatus | string }) {
  const published = status === "published";
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${
        published ? "bg-emerald-50 text-emerald-700 ring-emerald-600/20" : "bg-amber-50 text-amber-800 ring-amber-600/25"
      }`}
    >
      <span aria-hidden className={`size-1.5 rounded-full ${published ? "bg-emerald-500" : "bg-amber-500"}`} />
      {published ? "Published" : status === "draft" ? "Draft" : status}
    </span>
  );
}

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

/** A card with a heading row; `id` labels the section for assistive technology. */
export function SectionCard({
  id,
  title,
  description,
  icon: Icon,
  actions,
  children,
  className = "",
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  icon?: LucideIcon;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={`${cardClass} flex min-w-0 flex-col ${className}`}>
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 px-4 pt-4 sm:px-5 sm:pt-5">
        <div className="flex min-w-0 flex-1 basis-48 items-center gap-3">
          {Icon ? (
            <span aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-600">
              <Icon className="size-[18px]" />
            </span>
          ) : null}
          <div className="min-w-0">
            <h2 id={id} className="font-semibold tracking-tight text-slate-950">
              {title}
            </h2>
            {description ? <p className="mt-0.5 text-sm text-slate-600">{description}</p> : null}
          </div>
        </div>
        {actions}
      </div>
      <div className="min-w-0 flex-1 p-4 sm:p-5">{children}</div>
    </section>
  );
}
