import crypto from "node:crypto";
import { isUnsubscribeTokenShape } from "~/modules/http/id-shape";

/** How long an unsubscribe link in an e-mail keeps working. */
export const UNSUBSCRIBE_TOKEN_TTL_MS = 365 * 24 * 60 * 60 * 1000;

export type UnsubscribeTokenCheck = { ok: true; contactId: string } | { ok: false; reason: "invalid" | "expired" };

export type UnsubscribeTokens = {
  sign(contactId: string, now?: Date): string;
  verify(token: string, now?: Date): UnsubscribeTokenCheck;
};

/**
 * Signed one-click unsubscribe tokens: `{contact id}.{expiry in seconds}.{HMAC-SHA256}` in base64url. The key is
 * derived from AUTH_SECRET for this purpose only, so a token cannot be reused as anything else.
 */
export function createUnsubscribeTokens(secret: string): UnsubscribeTokens {
  const key = crypto.createHmac("sha256", secret).update("pitchqr:unsubscribe-token:v1").digest();
  const mac = (payload: string) => crypto.createHmac("sha256", key).update(payload).digest("base64url");

  return {
    sign(contactId, now = new Date()) {
      const expires = Math.floor((now.getTime() + UNSUBSCRIBE_TOKEN_TTL_MS) / 1000);
      const payload = `${Buffer.from(contactId).toString("base64url")}.${expires.toString(36)}`;
      return `${payload}.${mac(payload)}`;
    },
    verify(token, now = new Date()) {
      if (!isUnsubscribeTokenShape(token)) return { ok: false, reason: "invalid" };
      const parts = token.split(".");
      const [encodedId, encodedExpiry, signature] = parts as [string, string, string];
      const expected = Buffer.from(mac(`${encodedId}.${encodedExpiry}`));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
      const expires = parseInt(encodedExpiry, 36);
      if (!Number.isFinite(expires) || expires * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
      return { ok: true, contactId: Buffer.from(encodedId, "base64url").toString() };
    },
  };
}
