import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { createUnsubscribeTokens } from "~/modules/contacts/unsubscribe-token.server";
import { isInvitationTokenShape, isPasswordResetTokenShape, isRecordId, isUnsubscribeTokenShape, isViewerFingerprint } from "~/modules/http/id-shape";

describe("id shapes", () => {
  it.each([crypto.randomUUID(), "demo-owner", "A_b-9", "x".repeat(64)])("takes %j for a record id", (id) => {
    expect(isRecordId(id)).toBe(true);
  });

  it.each(["", "x".repeat(65), "a b", "a/b", "..", "a\u0000", "é", "%00", "a.b", null, 42, ["id"]])("refuses %j for a record id", (id) => {
    expect(isRecordId(id)).toBe(false);
  });

  it.each(["0123456789abcdef0123456789abcdef", "good-0", "base64+/=="])("takes %j for a viewer fingerprint", (fingerprint) => {
    expect(isViewerFingerprint(fingerprint)).toBe(true);
  });

  it.each(["", "has space", "tab\t", "x".repeat(65), "é", "nul\u0000"])("refuses %j for a viewer fingerprint", (fingerprint) => {
    expect(isViewerFingerprint(fingerprint)).toBe(false);
  });

  it("takes every token the app signs, and nothing shaped otherwise", () => {
    const tokens = createUnsubscribeTokens("test-secret-for-unsubscribe-tokens-0123456789");
    const token = tokens.sign(crypto.randomUUID());
    expect(isUnsubscribeTokenShape(token)).toBe(true);
    for (const bad of ["", "a.b.c", `${token}x`, `${token}.x`, token.replace(".", "%2E"), "x".repeat(3_000), `${token}\u0000`]) {
      expect(isUnsubscribeTokenShape(bad)).toBe(false);
    }
  });

  it("takes a reset token as better-auth makes it (24 letters and digits), and nothing else", () => {
    expect(isPasswordResetTokenShape("AbC123dEf456GhI789jKl012")).toBe(true);
    for (const bad of ["", "a".repeat(23), "a".repeat(25), "AbC123dEf456GhI789jKl01-", "../../sign-out/aaaaaaaaaaa", null, 42]) {
      expect(isPasswordResetTokenShape(bad)).toBe(false);
    }
  });

  it("takes an invitation token (32 bytes, base64url), and nothing else", () => {
    expect(isInvitationTokenShape(crypto.randomBytes(32).toString("base64url"))).toBe(true);
    for (const bad of ["", "a".repeat(42), "a".repeat(44), `${"a".repeat(42)}=`, `${"a".repeat(42)}/`, null]) {
      expect(isInvitationTokenShape(bad)).toBe(false);
    }
  });
});
