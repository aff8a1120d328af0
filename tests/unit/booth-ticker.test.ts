import { describe, expect, it } from "vitest";
import { shortName, tickerLine, todayStart } from "~/modules/booth/booth-ticker";
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
    expect(tickerLine({ id: "scan-1", kind: "scan", at: "", count: 1, eventLabel: "Demo Day" })).toBe("Someone just scanned · Demo Day");
    expect(tickerLine({ id: "scan-2", kind: "scan", at: "", count: 3, eventLabel: null })).toBe("3 scans just now");
    expect(tickerLine({ id: "intro-1", kind: "intro", at: "", name: "Ana K." })).toBe("Ana K. requested an intro");
    expect(tickerLine({ id: "signal-1", kind: "signal", at: "", tier: "Angel" })).toBe("New signal: Angel");
  });
});

describe("the booth's today", () => {
  const now = new Date("2026-05-04T15:20:00.000Z");

  it("starts at the booth device's midnight, floored to the hour of the scan buckets", () => {
    expect(todayStart("2026-05-04T07:00:00.000Z", now).toISOString()).toBe("2026-05-04T07:00:00.000Z");
    expect(todayStart("2026-05-03T22:00:00.000Z", now).toISOString()).toBe("2026-05-03T22:00:00.000Z");
    // UTC+5:30: midnight is half past the hour; the window starts on the hour before.
    expect(todayStart("2026-05-03T18:30:00.000Z", now).toISOString()).toBe("2026-05-03T18:00:00.000Z");
  });

  it("is the UTC day when the device sends nothing plausible", () => {
    for (const sent of [null, "", "yesterday", "2026-05-05T00:00:00.000Z", "2026-05-01T00:00:00.000Z"]) {
      expect(todayStart(sent, now).toISOString()).toBe("2026-05-04T00:00:00.000Z");
    }
  });
});

describe("booth link form", () => {
  it("accepts 1, 3 or 7 days, 3 when none is chosen, and nothing else", () => {
    expect(validate(createBoothLinkSchema, {})).toEqual({ ok: true, data: { days: 3 } });
    expect(validate(createBoothLinkSchema, { days: "7" })).toEqual({ ok: true, data: { days: 7 } });
    for (const days of ["2", "30", "-1", "1e3", "abc"]) {
      const result = validate(createBoothLinkSchema, { days });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.fieldErrors.days).toBe("Choose how long the link works: 1, 3 or 7 days");
    }
  });
});
