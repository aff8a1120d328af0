const PLACEHOLDER_ORIGIN = "http://return-to.invalid";

/**
 * The path to go to after signing in: only a same-site relative path is honoured, anything else
 * (an absolute URL, a protocol-relative `//host`, a backslash trick) falls back to `/`.
 */
export function safeReturnTo(value: string | null | undefined, fallback = "/"): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return fallback;
  try {
    const url = new URL(value, PLACEHOLDER_ORIGIN);
    if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** `/auth?returnTo=…` for a page that needs a signed-in user. */
export function authPathFor(returnTo: string): string {
  return `/auth?returnTo=${encodeURIComponent(returnTo)}`;
}
