import { beforeAll, describe, expect, it } from "vitest";
import { introMailto, introSubject, nameFromBlurb } from "~/browser/intro-blurb";
import { phoneUrl } from "~/components/pitch/phone-dialog";
import { additionalSupportersText, initials } from "~/components/pitch/recognition-wall";
import { httpUrlOrNull } from "~/components/pitch/safe-url";
import { mergeWallEntries, parseWallEntry, reconnectDelay } from "~/components/pitch/use-live-wall";
import type { PublicWallEntry } from "~/modules/recognition/wall.server";
import { preloadPitchForms } from "~/components/pitch/lazy-forms";

// recognition-wall.tsx pulls in lazy-forms.tsx, which starts loading the forms chunk when imported on the server;
// waiting for it here keeps that import from finishing after the test environment is gone (a flaky teardown error).
beforeAll(() => preloadPitchForms());

const entry = (id: number, seq: number, createdAt: string, displayName = `Person ${id}`): PublicWallEntry => ({
  id,
  seq,
  type: "Supporter",
  displayName,
  roleTags: [],
  message: null,
  createdAt,
});

describe("live wall helpers", () => {
  it("waits 1, 2, 5 and then always 10 seconds before reconnecting", () => {
    expect([1, 2, 3, 4, 5, 12].map(reconnectDelay)).toEqual([1_000, 2_000, 5_000, 10_000, 10_000, 10_000]);
  });

  it("merges entries newest first by wall number (commit order, whatever the clocks said) and never shows an id twice", () => {
    const streamed = [entry(7, 4, "2026-11-20T12:05:00Z", "Streamed copy"), entry(8, 5, "2026-11-20T12:04:59Z")];
    const loaded = [entry(7, 4, "2026-11-20T12:05:00Z", "Loaded copy"), entry(3, 3, "2026-11-20T11:00:00Z"), entry(5, 2, "2026-11-20T11:30:00Z")];
    const merged = mergeWallEntries(streamed, loaded);
    expect(merged.map((e) => e.id)).toEqual([8, 7, 3, 5]);
    expect(merged.find((e) => e.id === 7)?.displayName).toBe("Streamed copy");
  });

  it("accepts only well-formed stream entries", () => {
    const good = { id: 9, seq: 4, type: "Intro", displayName: "Ada", roleTags: ["PM", 3], message: "Hi", createdAt: "2026-11-20T12:00:00Z" };
    expect(parseWallEntry(JSON.stringify(good))).toEqual({ ...good, roleTags: ["PM"] });
    expect(parseWallEntry(JSON.stringify({ ...good, type: "Admin" }))).toBeNull();
    expect(parseWallEntry(JSON.stringify({ ...good, id: "9" }))).toBeNull();
    expect(parseWallEntry(JSON.stringify({ ...good, seq: undefined }))).toBeNull();
    expect(parseWallEntry("not json")).toBeNull();
  });
});

describe("recognition wall text", () => {
  it("says supporter for one and supporters for more", () => {
    expect(additionalSupportersText(1)).toBe("+ 1 additional supporter");
    expect(additionalSupportersText(4)).toBe("+ 4 additional supporters");
  });

  it("takes the initials of the first and last word", () => {
    expect(initials("Amara Okafor")).toBe("AO");
    expect(initials("St. Luke's Rural Clinic")).toBe("SC");
    expect(initials("cher")).toBe("C");
    expect(initials("  ")).toBe("?");
  });
});

describe("intro blurb", () => {
  const blurb = "Intro: Ada Lovelace (Angel, PM) → Harbor Cold Chain\n\nHappy to help.";

  it("reads the name back from the server's blurb", () => {
    expect(nameFromBlurb(blurb, "Harbor Cold Chain")).toBe("Ada Lovelace");
    expect(nameFromBlurb("Intro: Bo (the builder) → X", "X")).toBe("Bo (the builder)");
    expect(nameFromBlurb("Something else", "X")).toBeNull();
  });

  it("builds the subject 'Intro: {name} → {project title}'", () => {
    expect(introSubject(blurb, "Harbor Cold Chain", null)).toBe("Intro: Ada Lovelace → Harbor Cold Chain");
    expect(introSubject(blurb, "Harbor Cold Chain", " Ada ")).toBe("Intro: Ada → Harbor Cold Chain");
  });

  it("encodes the mailto link with CRLF line breaks", () => {
    expect(introMailto("Intro: A & B → C", "Line 1\nLine 2")).toBe(
      "mailto:?subject=Intro%3A%20A%20%26%20B%20%E2%86%92%20C&body=Line%201%0D%0ALine%202",
    );
  });
});

describe("page URLs", () => {
  it("gives the phone this page without dialog, sent and qr parameters", () => {
    expect(phoneUrl("https://pitch.example/pitch/demo?dialog=phone&qr=abc&utm=x#wall")).toBe("https://pitch.example/pitch/demo?utm=x");
  });

  it("keeps only http(s) links", () => {
    expect(httpUrlOrNull("https://calendly.com/x")).toBe("https://calendly.com/x");
    expect(httpUrlOrNull("javascript:alert(1)")).toBeNull();
    expect(httpUrlOrNull("")).toBeNull();
    expect(httpUrlOrNull(null)).toBeNull();
  });
});
