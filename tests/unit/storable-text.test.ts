import { describe, expect, it } from "vitest";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE, unstorableTextPaths } from "~/modules/forms/storable-text";
import { validate } from "~/modules/forms/validation";
import { introSchema } from "~/modules/contacts/intro-form";
import { trackScanSchema } from "~/modules/scans/scans.server";

describe("storable text", () => {
  it.each(["Ada", "Line one\nline two\r\n\tindented", "Zoë 😀 日本", ""])("accepts %j", (value) => {
    expect(isStorableText(value)).toBe(true);
  });

  it.each(["a\u0000b", "\u0001", "bell\u0007", "esc\u001b[31m", "del\u007f", "lone \ud83d surrogate", "\udc00 low"])("refuses %j", (value) => {
    expect(isStorableText(value)).toBe(false);
  });

  it("names the path of every unstorable string in a nested value", () => {
    expect(unstorableTextPaths({ name: "ok", roleTags: ["Angel", "P\u0000M"], meta: { note: "x\u0000" }, count: 3 })).toEqual([
      ["roleTags", "1"],
      ["meta", "note"],
    ]);
  });
});

describe("validate refuses NUL and control characters before the schema", () => {
  it("gives the field the message, whatever the schema would have said", () => {
    const result = validate(introSchema, { name: "Eve\u0000", email: "eve@example.com", note: "hi" });
    expect(result).toEqual({ ok: false, formError: UNSTORABLE_TEXT_MESSAGE, fieldErrors: { name: UNSTORABLE_TEXT_MESSAGE } });
  });

  it("refuses a poisoned scan fingerprint, so it never joins a batch", () => {
    const result = validate(trackScanSchema, { projectId: "p", viewerFingerprint: "abc\u0000" });
    expect(result.ok).toBe(false);
  });
});
