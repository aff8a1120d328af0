const PLACEHOLDER_ORIGIN = "http://return-to.invalid";

/**
 * The path to go to after signing in: only a same-site path is honoured, anything else falls back.
 *
 * The value is normalised first (as the browser will resolve it: dot segments, %2e, backslashes) and the
 * result is checked, never the raw input: `/..//evil.example` is a harmless-looking relative path that
 * normalises to `//evil.example`, which a browser follows to another host. Only a single leading `/`
 * followed by a character other than `/` or `\` (or the bare `/`) is accepted.
 */
export function safeReturnTo(value: string | null | undefined, fallback = "/"): string {
  if (!value || !value.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return isSingleSlashPath(path) ? path : fallback;
}

function isSingleSlashPath(path: string): boolean {
  if (!path.startsWith("/")) return false;
  const second = path.charAt(1);
  return second !== "/" && second !== "\\";
}

/** `/auth?returnTo=…` for a page that needs a signed-in user. */
export function authPathFor(returnTo: string): string {
  return `/auth?returnTo=${encodeURIComponent(returnTo)}`;
}
