import { config, safeParse, type core } from "zod/mini";
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPaths } from "./storable-text";

// zod probes for `new Function` support once, which the Content-Security-Policy reports as a blocked eval.
config({ jitless: true });

export type FieldErrors = Record<string, string>;

export type Validation<T> = { ok: true; data: T } | { ok: false; fieldErrors: FieldErrors; formError: string };

/**
 * Runs a form schema and keeps the first message per field, in the order the schema declares them.
 * Form schemas use `zod/mini` so the browser downloads only the checks they use.
 * Text with NUL or other control characters is refused first, whatever the schema, so it never reaches a
 * database (and both databases answer the same).
 */
export function validate<S extends core.$ZodType>(schema: S, input: unknown): Validation<core.output<S>> {
  const unstorable = unstorableTextPaths(input);
  if (unstorable.length) {
    const fieldErrors: FieldErrors = {};
    for (const path of unstorable) fieldErrors[path.length ? (path[0] ?? "form") : "form"] = UNSTORABLE_TEXT_MESSAGE;
    return { ok: false, fieldErrors, formError: UNSTORABLE_TEXT_MESSAGE };
  }
  const result = safeParse(schema, input);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "form";
    if (!(key in fieldErrors)) fieldErrors[key] = issue.message;
  }
  return { ok: false, fieldErrors, formError: result.error.issues[0]?.message ?? "Invalid input" };
}

/**
 * Reads a submitted form in one pass: each field as a string (the last value wins), except the named list
 * fields, which keep at most `max + 1` values. One value past the limit is enough for the form's schema to
 * refuse the list, and a post repeating a field 100,000 times costs no more than one with a legitimate list.
 */
export function readFormFields(formData: FormData, lists: Readonly<Record<string, number>> = {}): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const name of Object.keys(lists)) fields[name] = [];
  for (const [key, value] of formData) {
    if (typeof value !== "string") continue;
    const max = lists[key];
    if (max === undefined) fields[key] = value;
    else if ((fields[key] as string[]).length <= max) (fields[key] as string[]).push(value);
  }
  return fields;
}

/** Reads a submitted form into a plain object of strings (the last value wins for repeated keys). */
export function formToObject(formData: FormData): Record<string, string> {
  const object: Record<string, string> = {};
  for (const [key, value] of formData) if (typeof value === "string") object[key] = value;
  return object;
}
