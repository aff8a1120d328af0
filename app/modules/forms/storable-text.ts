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
 * storable text, looking through plain objects and arrays. Walks with its own stack (paths are shared by
 * their parents until one is reported), so a deeply nested JSON value costs time in its size, never the
 * call stack.
 */
export function unstorableTextPaths(input: unknown): string[][] {
  type Path = { key: string; parent: Path } | null;
  const found: string[][] = [];
  const pending: Array<{ value: unknown; path: Path }> = [{ value: input, path: null }];
  while (pending.length) {
    const { value, path } = pending.pop()!;
    if (typeof value === "string") {
      if (!isStorableText(value)) found.push(pathKeys(path));
    } else if (value !== null && typeof value === "object") {
      const entries = Array.isArray(value) ? value.map((item, index): [string, unknown] => [String(index), item]) : Object.entries(value as Record<string, unknown>);
      for (let index = entries.length - 1; index >= 0; index -= 1) pending.push({ value: entries[index]![1], path: { key: entries[index]![0], parent: path } });
    }
  }
  return found;

  function pathKeys(path: Path): string[] {
    const keys: string[] = [];
    for (let step = path; step; step = step.parent) keys.push(step.key);
    return keys.reverse();
  }
}
