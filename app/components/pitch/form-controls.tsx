import { LoaderCircle } from "lucide-react";
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { FieldError, FormAlert, inputClass, labelClass } from "~/components/form-fields";
import { visitorEmail, visitorName } from "~/modules/contacts/visitor-fields";
import { HONEYPOT_FIELD } from "~/modules/contacts/visitor-form-rules";
import { maxLengthOf } from "~/modules/forms/constraints";

type FieldBase = { id: string; name: string; label: ReactNode; error?: string; hint?: ReactNode; optional?: boolean };

function describedBy(id: string, error: string | undefined, hint: ReactNode, extra?: string) {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null, extra ?? null].filter(Boolean).join(" ") || undefined;
}

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

export function TextField({ id, name, label, error, hint, optional, required, ...input }: FieldBase & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <FieldLabel id={id} label={label} required={required} optional={optional} />
      <input
        id={id}
        name={name}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={inputClass}
        {...input}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
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
        {counter ? (
          <span id={counterId} className={`text-xs tabular-nums ${counter.length > counter.max ? "text-red-600" : "text-slate-500"}`}>
            {counter.length}/{counter.max}
            <span className="sr-only"> characters</span>
          </span>
        ) : null}
      </div>
      <textarea
        id={id}
        name={name}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint, counterId)}
        className={`${inputClass} min-h-24 resize-y`}
        {...textarea}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function CheckboxField({
  id,
  name,
  label,
  error,
  ...input
}: { id: string; name: string; label: ReactNode; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="peer mt-0.5 size-5 shrink-0 rounded border-slate-300 accent-brand-600 disabled:cursor-not-allowed"
          {...input}
        />
        <label htmlFor={id} className="text-sm leading-snug text-slate-700 peer-disabled:text-slate-400">
          {label}
        </label>
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A field people never see or fill; a value means a script filled the form (DESIGN.md, spam). */
export function Honeypot() {
  return (
    <div aria-hidden style={{ position: "absolute", left: "-9999px", top: "auto", width: 1, height: 1, overflow: "hidden" }}>
      <label>
        Website
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" aria-hidden defaultValue="" />
      </label>
    </div>
  );
}

export function SubmitButton({ busy, label, busyLabel, disabled }: { busy: boolean; label: string; busyLabel: string; disabled?: boolean }) {
  return (
    <button
      type="submit"
      disabled={busy || disabled}
      aria-disabled={busy || disabled}
      className="inline-flex w-full items-center justify-center gap-2 rounded-xl bg-brand-600 px-4 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
    >
      {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
      {busy ? busyLabel : label}
    </button>
  );
}

export { FormAlert };

type ContactForm = { submitted(field: string): string | undefined; fieldError(field: string): string | undefined };

/** Name and e-mail, as all three visitor forms ask for them (SPEC.md section 9 limits: 100 and 255). */
export function NameAndEmailFields({ id, form, autoFocus }: { id: string; form: ContactForm; autoFocus?: boolean }) {
  return (
    <>
      <TextField
        id={`${id}-name`}
        name="name"
        label="Name"
        required
        autoComplete="name"
        maxLength={maxLengthOf(visitorName)}
        defaultValue={form.submitted("name")}
        error={form.fieldError("name")}
        {...(autoFocus ? { "data-autofocus": true } : {})}
      />
      <TextField
        id={`${id}-email`}
        name="email"
        label="Email"
        type="email"
        inputMode="email"
        required
        autoComplete="email"
        maxLength={maxLengthOf(visitorEmail)}
        defaultValue={form.submitted("email")}
        error={form.fieldError("email")}
      />
    </>
  );
}
