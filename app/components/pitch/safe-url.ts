/**
 * An http(s) URL or null. The server accepts only http(s) for founder-given links already; this keeps a
 * `javascript:` value out of an href even if one slipped into the database. (Kept here rather than imported
 * from `visitor-forms.ts`, whose zod schemas would then land in the page's first download.)
 */
export function httpUrlOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? value : null;
  } catch {
    return null;
  }
}
