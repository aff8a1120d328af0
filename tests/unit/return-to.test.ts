import { describe, expect, it } from "vitest";
import { authPathFor, safeReturnTo } from "~/modules/auth/return-to";

describe("safeReturnTo", () => {
  it.each([
    ["/my-projects", "/my-projects"],
    ["/project/abc/edit?tab=qr#codes", "/project/abc/edit?tab=qr#codes"],
    ["/", "/"],
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
