import { describe, expect, it } from "vitest";
import { browserTraits, fallbackHex32, perBrowserId, sha256Hex32, VIEWER_ID_KEY, viewerFingerprint } from "~/modules/scans/viewer-fingerprint";

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

describe("sha256Hex32", () => {
  it("is the first 32 hex characters of SHA-256", async () => {
    // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    expect(await sha256Hex32("abc")).toBe("ba7816bf8f01cfea414140de5dae2223");
  });
});

describe("fallbackHex32", () => {
  it("gives 32 hex characters that differ between inputs", () => {
    expect(fallbackHex32("a|b")).toMatch(/^[0-9a-f]{32}$/);
    expect(fallbackHex32("a|b")).toBe(fallbackHex32("a|b"));
    expect(fallbackHex32("a|b")).not.toBe(fallbackHex32("a|c"));
  });
});

describe("perBrowserId", () => {
  it("creates an id once and keeps it in storage under pitchqr:viewer", () => {
    const storage = memoryStorage();
    const first = perBrowserId(storage);
    expect(first).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(storage.values.get(VIEWER_ID_KEY)).toBe(first);
    expect(perBrowserId(storage)).toBe(first);
  });

  it("reuses an id already stored", () => {
    expect(perBrowserId(memoryStorage({ [VIEWER_ID_KEY]: "kept" }))).toBe("kept");
  });

  it("falls back to one in-memory id when storage throws or is missing", () => {
    const broken = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("SecurityError");
      },
    };
    const a = perBrowserId(broken);
    expect(a).toBeTruthy();
    expect(perBrowserId(null)).toBe(a);
  });
});

describe("viewerFingerprint", () => {
  it("joins the traits with '|' and never prints 'undefined'", () => {
    const traits = browserTraits();
    expect(traits.split("|")).toHaveLength(8);
    expect(traits).not.toContain("undefined");
  });

  it("is 32 lowercase hex characters and stable within a page load", async () => {
    const first = await viewerFingerprint();
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(await viewerFingerprint()).toBe(first);
  });
});
