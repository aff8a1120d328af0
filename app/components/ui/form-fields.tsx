import { characterCount } from "~/browser/character-count";
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import type { FieldProps } from "./use-schema-form";

export const labelClass = "block text-sm font-medium text-slate-800";
export const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-500";
/** `inputClass` without its top margin, for inputs that sit in rows and grids. */
export const bareInputClass = inputClass.replace("mt-1 ", "");

/** The ids an input's `aria-describedby` lists (its error, hint, counter…), or nothing when there are none. */
export const describedBy = (...ids: Array<string | false | null | undefined>) => ids.filter(Boolean).join(" ") || undefined;

/** A message under a field, row or list; `id` is what the inputs' `aria-describedby` points at. */
export function FieldError({ id, message }: { id: string; message: string | undefined | null }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-600">
      {message}
    </p>
  );
}

export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-700">
      {message}
    </p>
  );
}

type FieldBase = {
  id: string;
  name: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  optional?: boolean;
  /** A form whose fields are all required (the account pages) marks none with an asterisk, only the optional ones. */
  requiredMark?: boolean;
  /** A link or note at the end of the label's line ('Forgot password?'). */
  aside?: ReactNode;
};

/** The label holds only the field's name (so it is exactly the accessible name); the marks sit beside it. */
function FieldLabel({ id, label, required, optional }: { id: string; label: ReactNode; required?: boolean; optional?: boolean }) {
  return (
    <div className="flex items-baseline gap-1">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {required ? (
        <span aria-hidden className="text-sm text-red-600">
          *
        </span>
      ) : null}
      {optional ? <span className="text-sm text-slate-500">(optional)</span> : null}
    </div>
  );
}

function FieldHint({ id, hint }: { id: string; hint: ReactNode }) {
  if (!hint) return null;
  return (
    <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
      {hint}
    </p>
  );
}

/** A field's characters used out of its maximum, read out as '… characters'. */
function CharacterCounter({ id, counter }: { id: string | undefined; counter: { length: number; max: number } }) {
  const count = characterCount(counter.length, counter.max);
  return (
    <span id={id} className={count.className}>
      {count.text}
      <span className="sr-only"> characters</span>
    </span>
  );
}

/** What a text control carries for its label, error, hint and counter: its id and name, required, and the aria links. */
function controlAttributes({ id, name, required, error, hint, counterId }: { id: string; name: string; required?: boolean; error?: string | null; hint?: ReactNode; counterId?: string }) {
  return {
    id,
    name,
    required,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(error && `${id}-error`, hint ? `${id}-hint` : null, counterId),
  };
}

/**
 * What a hand-built control (a select, a date or URL box) takes from its schema field: its id and name, the slot its
 * message goes to, and the link to that message while there is one.
 */
export function fieldControl(field: FieldProps) {
  return {
    id: field.id,
    name: field.name,
    "data-error-slot": field["data-error-slot"],
    "aria-invalid": field.error ? true : undefined,
    "aria-describedby": describedBy(field.error && `${field.id}-error`),
  };
}

/** The record a form acts on (a lead, a QR code, a team member...), posted as a hidden field named `name`. */
export function RecordIdField({ name, id }: { name: string; id: string }) {
  return <input type="hidden" name={name} value={id} />;
}

export function TextField({
  id,
  name,
  label,
  error,
  hint,
  optional,
  required,
  requiredMark = true,
  aside,
  counter,
  ...input
}: FieldBase & InputHTMLAttributes<HTMLInputElement> & { counter?: { length: number; max: number } }) {
  const fieldLabel = <FieldLabel id={id} label={label} required={required && requiredMark} optional={optional} />;
  const counterId = counter ? `${id}-counter` : undefined;
  const end = counter ? <CharacterCounter id={counterId} counter={counter} /> : aside;
  return (
    <div>
      {end ? (
        <div className="flex items-baseline justify-between gap-3">
          {fieldLabel}
          {end}
        </div>
      ) : (
        fieldLabel
      )}
      <input {...controlAttributes({ id, name, required, error, hint, counterId })} className={inputClass} {...input} />
      <FieldHint id={id} hint={hint} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function TextAreaField({
  id,
  name,
  label,
  error,
  hint,
  optional,
  required,
  counter,
  ...textarea
}: FieldBase & TextareaHTMLAttributes<HTMLTextAreaElement> & { counter?: { length: number; max: number } }) {
  const counterId = counter ? `${id}-counter` : undefined;
  return (
    <div>
      <div className="flex items-baseline justify-between gap-2">
        <FieldLabel id={id} label={label} required={required} optional={optional} />
        {counter ? <CharacterCounter id={counterId} counter={counter} /> : null}
      </div>
      <textarea {...controlAttributes({ id, name, required, error, hint, counterId })} className={`${inputClass} min-h-24 resize-y`} {...textarea} />
      <FieldHint id={id} hint={hint} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function CheckboxField({
  id,
  name,
  label,
  error,
  hint,
  ...input
}: { id: string; name: string; label: ReactNode; error?: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(error && `${id}-error`, hint ? `${id}-hint` : null)}
          className="peer mt-0.5 size-5 shrink-0 rounded border-slate-300 accent-brand-600 disabled:cursor-not-allowed"
          {...input}
        />
        <div className="min-w-0 text-slate-700 peer-disabled:text-slate-400">
          <label htmlFor={id} className="text-sm leading-snug">
            {label}
          </label>
          {hint ? (
            <p id={`${id}-hint`} className="mt-1 text-xs leading-snug text-slate-600">
              {hint}
            </p>
          ) : null}
        </div>
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
