import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "~/modules/http/origin.server";

const own = "https://pitch.example";
const check = (input: Partial<Parameters<typeof isCrossSiteWrite>[0]>) =>
  isCrossSiteWrite({ method: "POST", origin: undefined, secFetchSite: undefined, requestOrigin: own, ...input }, [own]);

describe("isCrossSiteWrite", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE"])("refuses a %s from another origin", (method) => {
    expect(check({ method, origin: "https://evil.example" })).toBe(true);
  });

  it("lets reads through whatever their origin", () => {
    expect(check({ method: "GET", origin: "https://evil.example" })).toBe(false);
    expect(check({ method: "HEAD", secFetchSite: "cross-site" })).toBe(false);
  });

  it("accepts the app's own origin, by PUBLIC_URL or by the Host it was addressed to", () => {
    expect(check({ origin: own })).toBe(false);
    expect(check({ origin: "http://localhost:3000", requestOrigin: "http://localhost:3000" })).toBe(false);
  });

  it("refuses an opaque origin (sandboxed frames, data: URLs)", () => {
    expect(check({ origin: "null" })).toBe(true);
  });

  it("falls back to Sec-Fetch-Site when Origin is absent", () => {
    expect(check({ secFetchSite: "cross-site" })).toBe(true);
    expect(check({ secFetchSite: "same-site" })).toBe(true);
    expect(check({ secFetchSite: "same-origin" })).toBe(false);
    expect(check({ secFetchSite: "none" })).toBe(false);
  });

  it("lets a non-browser client (no Origin, no Sec-Fetch-Site) through", () => {
    expect(check({})).toBe(false);
  });
});
