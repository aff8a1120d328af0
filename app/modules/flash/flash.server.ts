import { createCookie } from "react-router";

export type Toast = { type: "success" | "error" | "info"; message: string; description?: string };

/**
 * A one-shot message carried across a redirect: a toast ("Successfully signed in!"), or the intro blurb shown
 * after an intro request sent without JavaScript. Set by an action, shown and cleared by the next page load.
 */
export type Flash = { toast?: Toast; introBlurb?: string };

export const FLASH_COOKIE_NAME = "flash";

const FLASH_COOKIE_PRESENT = new RegExp(`(?:^|;\\s*)${FLASH_COOKIE_NAME}=`);

/** Whether a Cookie header carries a one-shot message (the page answering it is for this visitor only). */
export function hasFlashCookie(cookieHeader: string | null | undefined): boolean {
  return !!cookieHeader && FLASH_COOKIE_PRESENT.test(cookieHeader);
}

export function createFlashCookie(secret: string, secure: boolean) {
  return createCookie(FLASH_COOKIE_NAME, { httpOnly: true, sameSite: "lax", path: "/", secure, secrets: [secret], maxAge: 60 });
}

export type FlashCookie = ReturnType<typeof createFlashCookie>;

export async function readFlash(cookie: FlashCookie, request: Request): Promise<Flash | null> {
  const value = (await cookie.parse(request.headers.get("cookie"))) as unknown;
  if (!value || typeof value !== "object") return null;
  const { toast, introBlurb } = value as Flash;
  const flash: Flash = {};
  if (toast && ["success", "error", "info"].includes(toast.type) && typeof toast.message === "string") {
    flash.toast = { type: toast.type, message: toast.message, ...(typeof toast.description === "string" ? { description: toast.description } : {}) };
  }
  if (typeof introBlurb === "string") flash.introBlurb = introBlurb;
  return flash.toast || flash.introBlurb ? flash : null;
}

export function serializeFlash(cookie: FlashCookie, flash: Flash): Promise<string> {
  return cookie.serialize(flash);
}

export function clearFlash(cookie: FlashCookie): Promise<string> {
  return cookie.serialize("", { maxAge: 0 });
}
