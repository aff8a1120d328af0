import { Plus } from "lucide-react";
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { inputClass } from "~/components/form-fields";

/** `inputClass` without its top margin, for inputs that sit in rows and grids. */
export const bareInputClass = inputClass.replace("mt-1 ", "");

export const cardClass = "rounded-2xl border border-slate-200 bg-white shadow-sm";

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

/** A message under a row or list; `id` is what the inputs' `aria-describedby` points at. */
export function InlineError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-600">
      {message}
    </p>
  );
}

export const describedBy = (...ids: Array<string | false | null | undefined>) => ids.filter(Boolean).join(" ") || undefined;

/** Focuses an element by id (call after `flushSync`, so the element is in the document). */
export function focusNow(id: string) {
  document.getElementById(id)?.focus();
}
