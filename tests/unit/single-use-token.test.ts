// The tokens of invitation, booth and confirmation links: their shape, and the stored hash links already in a
// database are looked up by (sha256, hex), which must not change.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashSingleUseToken, newSingleUseToken } from "~/modules/tokens/single-use-token.server";

describe("single-use tokens", () => {
  it("are 256 random bits in base64url, each new one different, with the hash stored for it", () => {
    const first = newSingleUseToken();
    const second = newSingleUseToken();
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first.token, "base64url")).toHaveLength(32);
    expect(second.token).not.toBe(first.token);
    expect(first.hash).toBe(hashSingleUseToken(first.token));
  });

  it("are stored as their sha256 in hex, so links made before keep working", () => {
    expect(hashSingleUseToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const token = crypto.randomBytes(32).toString("base64url");
    expect(hashSingleUseToken(token)).toBe(crypto.createHash("sha256").update(token).digest("hex"));
  });
});
