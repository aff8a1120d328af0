import { config, safeParse, type core } from "zod/mini";

// zod probes for `new Function` support once, which the Content-Security-Policy reports as a blocked eval.
config({ jitless: true });

export type FieldErrors = Record<string, string>;

export type Validation<T> = { ok: true; data: T } | { ok: false; fieldErrors: FieldErrors; formError: string };

/**
 * Runs a form schema and keeps the first message per field, in the order the schema declares them.
 * Form schemas use `zod/mini` so the browser downloads only the checks they use.
 */
export function validate<S extends core.$ZodType>(schema: S, input: unknown): Validation<core.output<S>> {
  const result = safeParse(schema, input);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "form";
    if (!(key in fieldErrors)) fieldErrors[key] = issue.message;
  }
  return { ok: false, fieldErrors, formError: result.error.issues[0]?.message ?? "Invalid input" };
}

/** Reads a submitted form into a plain object of strings (the last value wins for repeated keys). */
export function formToObject(formData: FormData): Record<string, string> {
  const object: Record<string, string> = {};
  for (const [key, value] of formData) if (typeof value === "string") object[key] = value;
  return object;
}
