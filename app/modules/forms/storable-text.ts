/**
 * Text a database can store and a person could have typed: no NUL (PostgreSQL refuses it outright and SQLite
 * keeps it silently, so the two databases would answer differently), no other C0 control characters or DEL
 * (tab, line feed and carriage return stay, for multi-line fields), and no lone UTF-16 surrogates (which
 * would be stored as U+FFFD, changing what was sent).
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = "Please remove the invalid characters";

export function isStorableText(value: string): boolean {
  return !CONTROL_CHARACTER.test(value) && !LONE_SURROGATE.test(value);
}

/**
 * The path (`name`, `roleTags.2`, `metrics.0.label`) of every string in a submitted value that is not
 * storable text, looking through plain objects and arrays.
 */
export function unstorableTextPaths(input: unknown, path: readonly string[] = []): string[][] {
  if (typeof input === "string") return isStorableText(input) ? [] : [[...path]];
  if (Array.isArray(input)) return input.flatMap((item, index) => unstorableTextPaths(item, [...path, String(index)]));
  if (input !== null && typeof input === "object") {
    return Object.entries(input as Record<string, unknown>).flatMap(([key, value]) => unstorableTextPaths(value, [...path, key]));
  }
  return [];
}
