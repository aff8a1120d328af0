import { describe, expect, it } from "vitest";
import { acceptedTimeZone, bucketIndex, founderTimeZone, timeZoneChoices, zonedDayStart, zonedDayStarts, zonedHourStart, zonedHourStarts } from "~/modules/time/founder-zone";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const hoursBetween = (starts: number[]) => starts.slice(1).map((start, i) => (start - starts[i]!) / 3_600_000);

describe("founder's days in America/Denver", () => {
  it("starts a day at local midnight: 07:00 UTC in winter, 06:00 UTC in summer", () => {
    expect(iso(zonedDayStart(at("2026-11-26T06:59:59Z"), "America/Denver"))).toBe("2026-11-25T07:00:00.000Z");
    expect(iso(zonedDayStart(at("2026-11-26T07:00:00Z"), "America/Denver"))).toBe("2026-11-26T07:00:00.000Z");
    expect(iso(zonedDayStart(at("2026-07-04T05:59:00Z"), "America/Denver"))).toBe("2026-07-03T06:00:00.000Z");
  });

  it("makes the spring-forward day 23 hours and the fall-back day 25", () => {
    // 2026: clocks go forward on 8 March and back on 1 November, at 02:00 local time.
    const spring = zonedDayStarts(at("2026-03-07T12:00:00Z"), at("2026-03-09T12:00:00Z"), "America/Denver");
    expect(spring.map(iso)).toEqual(["2026-03-07T07:00:00.000Z", "2026-03-08T07:00:00.000Z", "2026-03-09T06:00:00.000Z"]);
    expect(hoursBetween(spring)).toEqual([24, 23]);
    const fall = zonedDayStarts(at("2026-10-31T12:00:00Z"), at("2026-11-02T12:00:00Z"), "America/Denver");
    expect(fall.map(iso)).toEqual(["2026-10-31T06:00:00.000Z", "2026-11-01T06:00:00.000Z", "2026-11-02T07:00:00.000Z"]);
    expect(hoursBetween(fall)).toEqual([24, 25]);
    // Every instant of the change days lands in its own local day.
    expect(iso(spring[bucketIndex(spring, at("2026-03-09T05:59:59Z"))]!)).toBe("2026-03-08T07:00:00.000Z");
    expect(iso(fall[bucketIndex(fall, at("2026-11-02T06:30:00Z"))]!)).toBe("2026-11-01T06:00:00.000Z");
  });

  it("has 23 hours on the spring-forward day and 1 AM twice on the fall-back day", () => {
    const spring = zonedHourStarts(at("2026-03-08T07:00:00Z"), at("2026-03-09T05:59:00Z"), "America/Denver");
    expect(spring).toHaveLength(23);
    const fall = zonedHourStarts(at("2026-11-01T06:00:00Z"), at("2026-11-02T06:59:00Z"), "America/Denver");
    expect(fall).toHaveLength(25);
    expect(fall.slice(0, 3).map(iso)).toEqual(["2026-11-01T06:00:00.000Z", "2026-11-01T07:00:00.000Z", "2026-11-01T08:00:00.000Z"]);
  });
});

describe("founder's days and hours in Asia/Kolkata (UTC+5:30)", () => {
  it("turns the day at 18:30 UTC, not at UTC midnight", () => {
    expect(iso(zonedDayStart(at("2026-11-26T18:29:59Z"), "Asia/Kolkata"))).toBe("2026-11-25T18:30:00.000Z");
    expect(iso(zonedDayStart(at("2026-11-26T18:30:00Z"), "Asia/Kolkata"))).toBe("2026-11-26T18:30:00.000Z");
    // Just after UTC midnight it is already 05:30 on the same local day that began at 18:30 UTC.
    expect(iso(zonedDayStart(at("2026-11-27T00:10:00Z"), "Asia/Kolkata"))).toBe("2026-11-26T18:30:00.000Z");
  });

  it("starts its hours at half past the UTC hour", () => {
    expect(iso(zonedHourStart(at("2026-11-26T23:59:00Z"), "Asia/Kolkata"))).toBe("2026-11-26T23:30:00.000Z");
    expect(iso(zonedHourStart(at("2026-11-27T00:29:59.999Z"), "Asia/Kolkata"))).toBe("2026-11-26T23:30:00.000Z");
    expect(zonedHourStarts(at("2026-11-26T18:00:00Z"), at("2026-11-26T20:00:00Z"), "Asia/Kolkata").map(iso)).toEqual([
      "2026-11-26T17:30:00.000Z",
      "2026-11-26T18:30:00.000Z",
      "2026-11-26T19:30:00.000Z",
    ]);
  });

  it("keeps 45-minute zones exact too (Asia/Kathmandu, UTC+5:45)", () => {
    expect(iso(zonedDayStart(at("2026-11-26T18:15:00Z"), "Asia/Kathmandu"))).toBe("2026-11-26T18:15:00.000Z");
    expect(iso(zonedHourStart(at("2026-11-26T18:10:00Z"), "Asia/Kathmandu"))).toBe("2026-11-26T17:15:00.000Z");
  });
});

describe("zone names", () => {
  it("accepts IANA names as a browser sends them, UTC and fixed Etc zones, and nothing else", () => {
    expect(acceptedTimeZone("America/Denver")).toBe("America/Denver");
    expect(acceptedTimeZone("Asia/Kolkata")).toBe("Asia/Kolkata");
    expect(acceptedTimeZone("Asia/Calcutta")).toBe("Asia/Kolkata");
    expect(acceptedTimeZone(" UTC ")).toBe("UTC");
    expect(acceptedTimeZone("Etc/UTC")).toBe("Etc/UTC");
    expect(acceptedTimeZone("Etc/GMT+5")).toBe("Etc/GMT+5");
    for (const bad of ["Mars/Olympus_Mons", "+05:30", "", "   ", "x".repeat(80), 42, null, undefined]) expect(acceptedTimeZone(bad)).toBeNull();
  });

  it("lists zones under their current names, UTC included", () => {
    const choices = timeZoneChoices();
    expect(choices).toContain("Asia/Kolkata");
    expect(choices).toContain("Europe/Kyiv");
    expect(choices).toContain("America/Denver");
    expect(choices).toContain("UTC");
    expect(choices).not.toContain("Asia/Calcutta");
    for (const zone of choices) expect(acceptedTimeZone(zone)).toBe(zone);
  });

  it("shows an account without a zone in UTC", () => {
    expect(founderTimeZone(null)).toBe("UTC");
    expect(founderTimeZone("Nowhere/Land")).toBe("UTC");
    expect(founderTimeZone("Asia/Kolkata")).toBe("Asia/Kolkata");
  });
});
