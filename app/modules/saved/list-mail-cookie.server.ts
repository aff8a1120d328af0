import crypto from "node:crypto";

const COOKIE_NAME = "pitchqr_list_mail";
const ONE_YEAR_S = 365 * 24 * 60 * 60;
/** Only the request that e-mails a list reads it. */
const COOKIE_PATH = "/api/functions/email-saved-list";
const COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${COOKIE_NAME}=([A-Za-z0-9_-]{1,400}\\.[A-Za-z0-9_-]{43})(?:;|$)`);

/**
 * The address this browser proved it controls by confirming a saved-list mail (decision 38): the address and an
 * HMAC of it under a key derived from AUTH_SECRET for this purpose only, so no other value and no forged address
 * passes. A browser holding it for the typed address gets its list at once; any other address is confirmed first.
 */
export type ListMailCookie = {
  serialize(email: string): string;
  addressOf(cookieHeader: string | null | undefined): string | null;
};

export function createListMailCookie(secret: string, secure: boolean): ListMailCookie {
  const key = crypto.createHmac("sha256", secret).update("pitchqr:list-mail-address:v1").digest();
  const mac = (encoded: string) => crypto.createHmac("sha256", key).update(encoded).digest("base64url");
  return {
    serialize(email) {
      const encoded = Buffer.from(email.toLowerCase()).toString("base64url");
      return `${COOKIE_NAME}=${encoded}.${mac(encoded)}; Path=${COOKIE_PATH}; Max-Age=${ONE_YEAR_S}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
    },
    addressOf(cookieHeader) {
      const value = cookieHeader ? COOKIE_VALUE.exec(cookieHeader)?.[1] : undefined;
      if (!value) return null;
      const [encoded, signature] = value.split(".") as [string, string];
      const expected = Buffer.from(mac(encoded));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
      return Buffer.from(encoded, "base64url").toString();
    },
  };
}
