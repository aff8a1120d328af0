import { describe, expect, it } from "vitest";
import { plural, pluralWord } from "~/modules/formats/counts";

describe("counts", () => {
  it("writes a count with its noun, the digits grouped", () => {
    expect(plural(1, "scan")).toBe("1 scan");
    expect(plural(0, "scan")).toBe("0 scans");
    expect(plural(1204, "scan")).toBe("1,204 scans");
    expect(plural(3, "person", "people")).toBe("3 people");
  });

  it("gives the words alone for a count: the singular for one, the plural form for any other number", () => {
    expect(pluralWord(1, "second")).toBe("second");
    expect(pluralWord(0, "second")).toBe("seconds");
    expect(pluralWord(2, "pitch", "pitches")).toBe("pitches");
    expect(pluralWord(1, "person is", "people are")).toBe("person is");
    expect(pluralWord(5, "person is", "people are")).toBe("people are");
  });
});
