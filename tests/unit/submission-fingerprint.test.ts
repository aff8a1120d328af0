import { describe, expect, it } from "vitest";
import { answerToRepeat, KEY_REUSED_MESSAGE, submissionFingerprint } from "~/modules/contacts/submission-keys.server";

describe("an idempotency key's request fingerprint (decision 41)", () => {
  const intro = { intent: "intro", via: "fetch", website: "", name: "Ada", email: "ada@example.com", note: "Hello", roleTags: ["Angel", "Operator"] };

  it("is the same for the same request, whatever the field order, spacing, honeypot or how it was sent", () => {
    const same = { roleTags: ["Angel", "Operator"], note: " Hello ", email: "ada@example.com", name: "Ada\n", via: "form", intent: "intro" };
    expect(submissionFingerprint("intro", same)).toBe(submissionFingerprint("intro", intro));
    expect(submissionFingerprint("intro", intro)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs for another intent, another value, another list order or a missing field", () => {
    const base = submissionFingerprint("intro", intro);
    expect(submissionFingerprint("subscribe", intro)).not.toBe(base);
    expect(submissionFingerprint("intro", { ...intro, note: "Hello!" })).not.toBe(base);
    expect(submissionFingerprint("intro", { ...intro, roleTags: ["Operator", "Angel"] })).not.toBe(base);
    const { note: _note, ...withoutNote } = intro;
    expect(submissionFingerprint("intro", withoutNote)).not.toBe(base);
  });

  it("answers a repeat with the first answer, another request with 422, and a key without a fingerprint with its message only", () => {
    const fingerprint = submissionFingerprint("intro", intro);
    const outcome = { message: "Intro request sent!", blurb: "Ada: Hello" };
    expect(answerToRepeat({ outcome, fingerprint }, fingerprint)).toEqual(outcome);
    expect(() => answerToRepeat({ outcome, fingerprint }, "0".repeat(64))).toThrow(KEY_REUSED_MESSAGE);
    expect(answerToRepeat({ outcome, fingerprint: null }, fingerprint)).toEqual({ message: "Intro request sent!" });
  });
});
