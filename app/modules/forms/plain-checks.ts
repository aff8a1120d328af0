/**
 * Checks and messages shared by the zod field builders (`fields.ts`) and the pitch page's no-framework client,
 * which must not load zod (decision 13).
 */
export const REQUIRED_MESSAGE = "Please fill in all required fields";

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
