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
    // Paths that look relative but normalise to a protocol-relative `//host` (issue 15, defect 3).
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

  it("builds the sign-in path that brings the visitor back", () => {
    expect(authPathFor("/my-projects")).toBe("/auth?returnTo=%2Fmy-projects");
  });
});
