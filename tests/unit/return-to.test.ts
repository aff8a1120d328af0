import { describe, expect, it } from "vitest";
import { authPathFor, safeReturnTo } from "~/modules/auth/return-to";

describe("safeReturnTo", () => {
  it.each([
    ["/my-projects", "/my-projects"],
    ["/project/abc/edit?tab=qr#codes", "/project/abc/edit?tab=qr#codes"],
    ["/", "/"],
    ["/a/../my-projects", "/my-projects"],
    ["/%2f%2fevil.example", "/%2f%2fevil.example"],
  ])("honours the same-site path %s", (value, expected) => {
    expect(safeReturnTo(value)).toBe(expected);
  });

  it.each([
    "https://elsewhere.example",
    "//elsewhere.example",
    "//elsewhere.example/my-projects",
    "/\\elsewhere.example",
    "\\\\elsewhere.example",
    "javascript:alert(1)",
    "my-projects",
    // Paths that look relative but normalise to a protocol-relative `//host` (defect 3).
    "/..//evil.example/login",
    "/.//evil.example/login",
    "/%2e%2e//evil.example/login",
    "/%2E%2E//evil.example/login",
    "/.%2e//evil.example/login",
    "/a/..//evil.example/login",
    "/a/b/../..//evil.example/login",
    "/./..//evil.example",
    "/\t/evil.example",
    "/\\/evil.example",
    "",
    null,
    undefined,
  ])("refuses %s and falls back to /", (value) => {
    expect(safeReturnTo(value)).toBe("/");
  });

  describe("after sign-in, only a path on this site is followed", () => {
    it.each([
      "http://elsewhere.example/my-projects",
      "HTTPS://elsewhere.example",
      "ftp://elsewhere.example",
      "mailto:someone@elsewhere.example",
      "data:text/html,<script>alert(1)</script>",
      "JaVaScRiPt:alert(1)",
      " /my-projects",
    ])("ignores the absolute or scheme address %s", (value) => {
      expect(safeReturnTo(value)).toBe("/");
    });

    it.each(["//elsewhere.example", "///elsewhere.example", "////elsewhere.example/path", "/\\elsewhere.example", "\\/elsewhere.example"])(
      "ignores the protocol-relative or backslash address %s",
      (value) => {
        expect(safeReturnTo(value)).toBe("/");
      },
    );

    it.each(["/\n/elsewhere.example", "/\r\n/elsewhere.example", "/\t\\elsewhere.example"])(
      "ignores %j, which a browser reads as //host once it drops the line breaks and tabs",
      (value) => {
        expect(safeReturnTo(value)).toBe("/");
      },
    );

    it.each(["%2F%2Felsewhere.example", "%2f%2felsewhere.example", "%5C%5Celsewhere.example", "%2e%2e//elsewhere.example"])(
      "ignores the percent-encoded escape %s (not a path of this site)",
      (value) => {
        expect(safeReturnTo(value)).toBe("/");
      },
    );

    it.each([
      ["/%2F%2Felsewhere.example", "/%2F%2Felsewhere.example"],
      ["/%5C%5Celsewhere.example", "/%5C%5Celsewhere.example"],
      ["/%252e%252e//elsewhere.example", "/%252e%252e//elsewhere.example"],
    ])("keeps an encoded slash or backslash inside a path of this site, where it stays text: %s", (value, expected) => {
      const result = safeReturnTo(value);
      expect(result).toBe(expected);
      // Resolved as the browser resolves a Location header, it stays on this site.
      expect(new URL(result, "https://pitch.example").origin).toBe("https://pitch.example");
    });

    it.each(["/project/abc/leads", "/dashboard", "/project/abc/leads?status=new&q=ana", "/my-projects#first"])("keeps the deep link %s", (value) => {
      expect(safeReturnTo(value)).toBe(value);
    });

    it("uses the fallback given for anything refused", () => {
      expect(safeReturnTo("//elsewhere.example", "/my-projects")).toBe("/my-projects");
    });
  });

  it("builds the sign-in path that brings the visitor back", () => {
    expect(authPathFor("/my-projects")).toBe("/auth?returnTo=%2Fmy-projects");
  });
});
