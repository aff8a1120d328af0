import { describe, expect, it } from "vitest";
import { validate } from "~/modules/forms/validation";
import { EMAIL_MESSAGE } from "~/modules/forms/visitor-limits";
import { REQUIRED_MESSAGE } from "~/modules/forms/plain-checks";
import {
  isPitchSaved,
  readSavedList,
  SAVED_LIST_KEY,
  withoutPitch,
  withPitchSaved,
  withSaveCounted,
  writeSavedList,
  type SavedPitch,
} from "~/modules/saved/saved-list";
import { emailSavedListSchema } from "~/modules/saved/saved-list-form";
import { MAX_SAVED_PITCHES_PER_MAIL, SAVED_LIST_MESSAGES, savedListCountError, savedListEmailError } from "~/modules/saved/saved-list-rules";

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

const pitch = (slug: string, savedAt: string, extra: Partial<SavedPitch> = {}): SavedPitch => ({
  slug,
  projectId: `id-${slug}`,
  title: `Title ${slug}`,
  oneLiner: `One-liner ${slug}`,
  url: `/pitch/${slug}`,
  savedAt,
  via: "Direct",
  qrCodeId: null,
  counted: false,
  ...extra,
});

describe("the saved list on the phone", () => {
  it("keeps pitches newest first, one per pitch, and removes one", () => {
    const storage = new MemoryStorage();
    let list = readSavedList(storage);
    expect(list).toEqual([]);
    list = withPitchSaved(list, pitch("alpha", "2026-11-24T09:00:00.000Z"));
    list = withPitchSaved(list, pitch("beta", "2026-11-24T10:00:00.000Z"));
    list = withPitchSaved(list, pitch("gamma", "2026-11-24T11:00:00.000Z"));
    // Saved again: moves to the top with its new time, still once.
    list = withPitchSaved(list, pitch("alpha", "2026-11-24T12:00:00.000Z"));
    expect(writeSavedList(storage, list)).toBe(true);
    expect(readSavedList(storage).map((saved) => saved.slug)).toEqual(["alpha", "gamma", "beta"]);
    expect(isPitchSaved(readSavedList(storage), "beta")).toBe(true);

    writeSavedList(storage, withoutPitch(readSavedList(storage), "gamma"));
    expect(readSavedList(storage).map((saved) => saved.slug)).toEqual(["alpha", "beta"]);
    expect(isPitchSaved(readSavedList(storage), "gamma")).toBe(false);
  });

  it("sorts by time whatever order the storage holds, and keeps the newest of two entries for one pitch", () => {
    const storage = new MemoryStorage();
    storage.setItem(
      SAVED_LIST_KEY,
      JSON.stringify([pitch("old", "2026-11-20T08:00:00.000Z"), pitch("new", "2026-11-24T08:00:00.000Z"), pitch("old", "2026-11-22T08:00:00.000Z")]),
    );
    expect(readSavedList(storage).map((saved) => [saved.slug, saved.savedAt])).toEqual([
      ["new", "2026-11-24T08:00:00.000Z"],
      ["old", "2026-11-22T08:00:00.000Z"],
    ]);
  });

  it("tolerates a corrupt store: not JSON, not a list, bad entries, and a link it did not write", () => {
    const storage = new MemoryStorage();
    for (const corrupt of ["{", "null", '"text"', "42", '{"slug":"a"}']) {
      storage.setItem(SAVED_LIST_KEY, corrupt);
      expect(readSavedList(storage)).toEqual([]);
    }
    storage.setItem(
      SAVED_LIST_KEY,
      JSON.stringify([null, 7, { slug: "no-time", projectId: "p", title: "T" }, { ...pitch("bad-time", "yesterday") }, { ...pitch("ok", "2026-11-24T08:00:00.000Z"), url: "javascript:alert(1)", via: 5 }]),
    );
    const [only, ...rest] = readSavedList(storage);
    expect(rest).toEqual([]);
    // The link is always rebuilt from the slug; a missing event reads as Direct.
    expect(only).toMatchObject({ slug: "ok", url: "/pitch/ok", via: "Direct" });
    expect(readSavedList(null)).toEqual([]);
    const refusing = { getItem: () => null, setItem: () => { throw new Error("QuotaExceededError"); } };
    expect(writeSavedList(refusing, [pitch("a", "2026-11-24T08:00:00.000Z")])).toBe(false);
  });

  it("records the event the server named once it counted the save", () => {
    const list = [pitch("a", "2026-11-24T08:00:00.000Z", { qrCodeId: "code1", via: "Event QR code" }), pitch("b", "2026-11-24T07:00:00.000Z")];
    expect(withSaveCounted(list, "a", "Demo Day Berlin")[0]).toMatchObject({ via: "Demo Day Berlin", counted: true });
    expect(withSaveCounted(list, "a", "Demo Day Berlin")[1]).toEqual(list[1]);
  });
});

describe("the 'E-mail me this list' form", () => {
  it("takes an address and the saved slugs, and refuses what it must", () => {
    expect(validate(emailSavedListSchema, { email: " Ana@Example.COM ", slugs: ["harbor-cold-chain", "tidal"] })).toEqual({
      ok: true,
      data: { email: "ana@example.com", slugs: ["harbor-cold-chain", "tidal"] },
    });
    const refused = (input: unknown) => {
      const result = validate(emailSavedListSchema, input);
      return result.ok ? null : result.formError;
    };
    expect(refused({ email: "not-an-address", slugs: ["a"] })).toBe(EMAIL_MESSAGE);
    expect(refused({ email: "", slugs: ["a"] })).toBe(REQUIRED_MESSAGE);
    expect(refused({ email: "ana@example.com", slugs: [] })).toBe(SAVED_LIST_MESSAGES.empty);
    expect(refused({ email: "ana@example.com", slugs: ["../admin"] })).toBe(SAVED_LIST_MESSAGES.unknownPitch);
    expect(refused({ email: "ana@example.com", slugs: Array.from({ length: MAX_SAVED_PITCHES_PER_MAIL + 1 }, (_, index) => `p${index}`) })).toBe(SAVED_LIST_MESSAGES.tooMany);
    expect(refused({ email: "ana@example.com", slugs: Array.from({ length: MAX_SAVED_PITCHES_PER_MAIL }, (_, index) => `p${index}`) })).toBeNull();
  });

  it("is checked in the browser with the same messages the server's schema gives", () => {
    for (const email of ["", "not-an-address", "ana@example.com", `${"a".repeat(250)}@example.com`]) {
      const server = validate(emailSavedListSchema, { email, slugs: ["a"] });
      expect(savedListEmailError(email)).toBe(server.ok ? null : server.formError);
    }
    expect(savedListCountError(0)).toBe(SAVED_LIST_MESSAGES.empty);
    expect(savedListCountError(MAX_SAVED_PITCHES_PER_MAIL)).toBeNull();
    expect(savedListCountError(MAX_SAVED_PITCHES_PER_MAIL + 1)).toBe(SAVED_LIST_MESSAGES.tooMany);
  });
});
