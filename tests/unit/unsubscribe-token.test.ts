import { describe, expect, it } from "vitest";
import { createUnsubscribeTokens, UNSUBSCRIBE_TOKEN_TTL_MS } from "~/modules/contacts/unsubscribe-token.server";

const tokens = createUnsubscribeTokens("a-secret-that-is-long-enough-0123456789");
const now = new Date("2026-11-20T09:00:00Z");

describe("unsubscribe tokens", () => {
  it("verifies a token it signed, naming the contact", () => {
    const token = tokens.sign("contact-1", now);
    expect(token).toMatch(/^[\w-]+\.[\da-z]+\.[\w-]+$/);
    expect(tokens.verify(token, now)).toEqual({ ok: true, contactId: "contact-1" });
  });

  it("refuses a token whose contact, expiry or signature was changed, or that another secret signed", () => {
    const [id, expiry, signature] = tokens.sign("contact-1", now).split(".") as [string, string, string];
    const otherId = Buffer.from("contact-2").toString("base64url");
    expect(tokens.verify(`${otherId}.${expiry}.${signature}`, now)).toEqual({ ok: false, reason: "invalid" });
    expect(tokens.verify(`${id}.${(parseInt(expiry, 36) + 1000).toString(36)}.${signature}`, now)).toEqual({ ok: false, reason: "invalid" });
    expect(tokens.verify(`${id}.${expiry}.${signature.slice(0, -1)}A`, now).ok).toBe(false);
    expect(tokens.verify(`${id}.${expiry}`, now)).toEqual({ ok: false, reason: "invalid" });
    expect(tokens.verify("", now)).toEqual({ ok: false, reason: "invalid" });
    const other = createUnsubscribeTokens("another-secret-that-is-long-enough-987");
    expect(other.verify(tokens.sign("contact-1", now), now)).toEqual({ ok: false, reason: "invalid" });
  });

  it("expires a year after it was signed", () => {
    const token = tokens.sign("contact-1", now);
    expect(tokens.verify(token, new Date(now.getTime() + UNSUBSCRIBE_TOKEN_TTL_MS - 1000)).ok).toBe(true);
    expect(tokens.verify(token, new Date(now.getTime() + UNSUBSCRIBE_TOKEN_TTL_MS + 1000))).toEqual({ ok: false, reason: "expired" });
  });
});
