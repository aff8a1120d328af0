import { createCookie } from "react-router";

export type Toast = { type: "success" | "error" | "info"; message: string; description?: string };

/**
 * A one-shot message carried across a redirect ("Project created successfully", "Successfully signed in!"):
 * set by an action, shown and cleared by the next page load.
 */
export function createToastCookie(secret: string, secure: boolean) {
  return createCookie("toast", { httpOnly: true, sameSite: "lax", path: "/", secure, secrets: [secret], maxAge: 60 });
}

export type ToastCookie = ReturnType<typeof createToastCookie>;

export async function readToast(cookie: ToastCookie, request: Request): Promise<Toast | null> {
  const value = (await cookie.parse(request.headers.get("cookie"))) as unknown;
  if (!value || typeof value !== "object") return null;
  const { type, message, description } = value as Partial<Toast>;
  if ((type !== "success" && type !== "error" && type !== "info") || typeof message !== "string") return null;
  return { type, message, ...(typeof description === "string" ? { description } : {}) };
}

export function serializeToast(cookie: ToastCookie, toast: Toast): Promise<string> {
  return cookie.serialize(toast);
}

export function clearToast(cookie: ToastCookie): Promise<string> {
  return cookie.serialize("", { maxAge: 0 });
}
