import { Eye, EyeOff } from "lucide-react";
import { cardClass } from "~/components/ui/card";
import { FieldError } from "~/components/ui/form-fields";
import type { FieldProps } from "~/components/ui/use-schema-form";

export type ProjectStatus = "draft" | "published";

const OPTIONS = [
  { value: "draft", label: "Draft", hint: "Only you can see the pitch page.", Icon: EyeOff },
  { value: "published", label: "Published", hint: "Anyone with the link or a QR code can see it.", Icon: Eye },
] as const;

/** Draft or Published as two radio cards (the whole card is the label); each radio is named "Draft" or "Published" alone, the line below describes it. */
export function StatusField({ defaultValue, field }: { defaultValue: ProjectStatus; field: FieldProps }) {
  const { id, name, error } = field;
  return (
    <fieldset id={id} aria-describedby={error ? `${id}-error` : undefined} className={`${cardClass} min-w-0 p-4 sm:p-6`}>
      <legend className="float-left w-full text-base font-semibold tracking-tight text-slate-900">Status</legend>
      <div className="clear-both grid grid-cols-2 gap-2 pt-3 sm:gap-3">
        {OPTIONS.map(({ value, label, hint, Icon }) => {
          const optionId = `${id}-${value}`;
          return (
            <label
              key={value}
              className="flex cursor-pointer items-start gap-2.5 rounded-xl border border-slate-200 bg-white p-3 transition-colors hover:border-slate-300 has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:ring-1 has-checked:ring-brand-600 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600 sm:p-4"
            >
              <input
                id={optionId}
                type="radio"
                name={name}
                value={value}
                defaultChecked={defaultValue === value}
                data-error-slot={field["data-error-slot"]}
                aria-labelledby={`${optionId}-name`}
                aria-describedby={`${optionId}-hint`}
                className="mt-0.5 size-4 shrink-0 accent-brand-600 focus-visible:outline-none"
              />
              <span className="min-w-0">
                <span className="flex items-center gap-1.5 text-sm font-semibold text-slate-900">
                  <span id={`${optionId}-name`}>{label}</span>
                  <Icon aria-hidden className="size-3.5 text-slate-500" />
                </span>
                <span id={`${optionId}-hint`} className="mt-0.5 block text-xs leading-snug text-slate-600">
                  {hint}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
