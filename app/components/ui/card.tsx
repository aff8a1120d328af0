import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

export const cardClass = "rounded-2xl border border-slate-200 bg-white shadow-sm";

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

/** A large card's heading: its icon on a tinted badge (`badge`: the badge's colours), the title and a line under it. */
export function BadgeHeading({ id, icon: Icon, badge, title, description }: { id: string; icon: LucideIcon; badge: string; title: ReactNode; description: ReactNode }) {
  return (
    <div className="flex items-start gap-3">
      <span aria-hidden className={`flex size-10 shrink-0 items-center justify-center rounded-xl ${badge}`}>
        <Icon className="size-5" />
      </span>
      <div className="min-w-0">
        <h2 id={id} className="text-base font-semibold tracking-tight text-slate-900">
          {title}
        </h2>
        <p className="mt-0.5 text-sm text-slate-600">{description}</p>
      </div>
    </div>
  );
}

/** A card that holds one group of a long form's fields, under a heading; `id` is the section's anchor. */
export function FormSection({
  id,
  title,
  description,
  aside,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={`${cardClass} p-4 sm:p-6`}>
      <div className="mb-4 flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-base font-semibold tracking-tight text-slate-900">
            {title}
          </h2>
          {description ? <p className="mt-0.5 text-sm text-slate-600">{description}</p> : null}
        </div>
        {aside}
      </div>
      <div className="space-y-5">{children}</div>
    </section>
  );
}
