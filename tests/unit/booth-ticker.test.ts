import { describe, expect, it } from "vitest";
import { shortName, tickerLine, TickerTracker, type TickerItem } from "~/modules/booth/booth-ticker";
import { createBoothLinkSchema } from "~/modules/booth/booth-link-form";
import { validate } from "~/modules/forms/validation";

describe("booth ticker lines", () => {
  it("shows a first name and the last name's initial, never more", () => {
    expect(shortName("Ana Karenina")).toBe("Ana K.");
    expect(shortName("  ana   maria  karenina ")).toBe("Ana K.");
    expect(shortName("Ana")).toBe("Ana");
    expect(shortName("Émile zola")).toBe("Émile Z.");
    expect(shortName("   ")).toBe("Someone");
  });

  it("says what happened", () => {
    expect(tickerLine({ id: "scan-1", kind: "scan", at: "", count: 1, eventLabel: "Booth 12 · Demo Day" })).toBe("Someone just scanned — Booth 12 · Demo Day");
    expect(tickerLine({ id: "scan-2", kind: "scan", at: "", count: 3, eventLabel: null })).toBe("3 scans just now");
    expect(tickerLine({ id: "intro-1", kind: "intro", at: "" })).toBe("Someone requested an intro");
    expect(tickerLine({ id: "signal-1", kind: "signal", at: "", shown: { name: "Ana K.", tier: "Angel" } })).toBe("New signal from Ana K.: Angel");
    expect(tickerLine({ id: "signal-2", kind: "signal", at: "", shown: null })).toBe("New signal");
  });
});

describe("booth link form", () => {
  it("accepts 1, 3 or 7 days, 3 when none is chosen, and nothing else", () => {
    expect(validate(createBoothLinkSchema, {})).toEqual({ ok: true, data: { days: 3, code: null } });
    expect(validate(createBoothLinkSchema, { days: "7" })).toEqual({ ok: true, data: { days: 7, code: null } });
    for (const days of ["2", "30", "-1", "1e3", "abc"]) {
      const result = validate(createBoothLinkSchema, { days });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.fieldErrors.days).toBe("Choose how long the link works: 1, 3 or 7 days");
    }
  });

  it("takes the code its screens show: a code's id, the plain address, or the default; nothing else", () => {
    const id = "0b6a3c2e-8c1f-4f7e-9a53-2d8e7f1c4b90";
    expect(validate(createBoothLinkSchema, { code: id })).toMatchObject({ ok: true, data: { code: id } });
    expect(validate(createBoothLinkSchema, { code: "plain" })).toMatchObject({ ok: true, data: { code: "plain" } });
    expect(validate(createBoothLinkSchema, { code: "" })).toMatchObject({ ok: true, data: { code: null } });
    expect(validate(createBoothLinkSchema, { code: "../etc" })).toMatchObject({ ok: false, fieldErrors: { code: "Choose one of this project's QR codes" } });
  });
});

describe("what a booth stream sends of the ticker", () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 4, 4, 15, 0, seconds)).toISOString();
  const intro = (id: number, seconds: number): TickerItem => ({ id: `intro-${id}`, kind: "intro", at: at(seconds) });
  const scans = (seconds: number, count: number): TickerItem => ({ id: `scans-direct-${at(seconds)}`, kind: "scan", at: at(seconds), count, eventLabel: null });

  it("sends each intro once and a scan group's new scans only, from overlapping reads", () => {
    const tracker = new TickerTracker(null);
    expect(tracker.fresh([scans(1, 3), intro(1, 2)])).toEqual([scans(1, 3), intro(1, 2)]);
    // Read again with an overlap: the group grew by 4 (rows of its batch committed late), the intro is not new.
    const again = tracker.fresh([scans(1, 7), intro(1, 2), intro(2, 3)]);
    expect(again).toEqual([{ ...scans(1, 4), id: `${scans(1, 0).id}+3` }, intro(2, 3)]);
    expect(tracker.newest).toBe(at(3));
    expect(tracker.fresh([scans(1, 7), intro(2, 3)])).toEqual([]);
  });

  it("never cuts people's actions for scans, however many scan groups a read holds", () => {
    const tracker = new TickerTracker(null);
    const read = [...Array.from({ length: 300 }, (_, index) => scans(index % 59, 1 + index)), intro(1, 10), intro(2, 40)].sort((a, b) => a.at.localeCompare(b.at));
    const kinds = tracker.fresh(read).map((item) => item.kind);
    expect(kinds.filter((kind) => kind === "intro")).toHaveLength(2);
  });

  it("sends nothing at or before the cursor it resumed from, and reads its own window from the overlap before it", () => {
    const tracker = new TickerTracker(at(5));
    expect(tracker.fresh([intro(1, 4), intro(2, 5), intro(3, 6)])).toEqual([intro(3, 6)]);
    expect(tracker.readFrom(new Date(at(0)))).toBe(at(1));
    expect(new TickerTracker(null).readFrom(new Date(at(0)))).toBe(at(0));
  });
});

