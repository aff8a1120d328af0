import { LoaderCircle } from "lucide-react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import type { core } from "zod/mini";
import { describedBy, FieldError, labelClass } from "~/components/ui/form-fields";
import { useSchemaForm, type FieldProps } from "~/components/ui/use-schema-form";
import type { FormResult } from "~/modules/forms/form-result";

/**
 * A lead-settings card's form: a fetcher posts it, its schema checks it, and a toast says how it went. `lastResult`
 * picks the answer the form shows from the fetcher's (the page's own, without JavaScript, is the usual fallback).
 */
export function useSettingsForm<Result extends FormResult>(
  schema: core.$ZodType,
  { id, lastResult, read }: { id: string; lastResult: (posted: Result | undefined) => Result | undefined; read?: (form: FormData) => unknown },
) {
  const fetcher = useFetcher<Result>();
  // A form result is plain JSON: what the fetcher holds is the result itself.
  const posted = fetcher.data as Result | undefined;
  const busy = fetcher.state !== "idle";
  const schemaForm = useSchemaForm<Result>(schema, {
    id,
    lastResult: lastResult(posted),
    busy,
    read,
    onResult: (settled) => (settled.ok ? toast.success(settled.message) : toast.error(settled.formError)),
  });
  return { fetcher, busy, ...schemaForm };
}

/** A settings card's save button, at the card's right; while the post is under way it spins and says so. */
export function SaveButton({ busy, label, className }: { busy: boolean; label: string; className: string }) {
  return (
    <div className="flex justify-end">
      <button type="submit" disabled={busy} className={className}>
        {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
        {busy ? "Saving..." : label}
      </button>
    </div>
  );
}

/** One setting chosen from a few, as radio buttons under a legend (`columns`: how many side by side on wider screens). */
export function ChoiceFieldset<Value extends string>({
  field,
  legend,
  choices,
  labels,
  isChosen,
  columns,
}: {
  field: FieldProps;
  legend: string;
  choices: readonly Value[];
  labels: Record<Value, string>;
  isChosen: (value: Value) => boolean;
  columns: "sm:grid-cols-2" | "sm:grid-cols-3";
}) {
  return (
    <fieldset id={field.id} aria-describedby={describedBy(field.error && `${field.id}-error`)}>
      <legend className={labelClass}>{legend}</legend>
      <div className={`mt-2 grid gap-2 ${columns}`}>
        {choices.map((value) => (
          <label
            key={value}
            className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2.5 text-sm font-medium text-slate-800 has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:text-brand-700"
          >
            <input type="radio" name={field.name} value={value} defaultChecked={isChosen(value)} data-error-slot={field["data-error-slot"]} className="accent-brand-600" />
            {labels[value]}
          </label>
        ))}
      </div>
      <FieldError id={`${field.id}-error`} message={field.error} />
    </fieldset>
  );
}
