import { describe, expect, it } from "vitest";
import { isValidTimeZone, latestDailySlot, latestDigestSlot } from "~/modules/time/zoned-slots";

describe("latestDigestSlot", () => {
  it("is this Friday from the configured hour on, and last Friday before it (UTC)", () => {
    // 2026-11-20 is a Friday.
    expect(latestDigestSlot(new Date("2026-11-20T09:00:00Z"), 9, "UTC")).toEqual({ slot: "2026-11-20", at: new Date("2026-11-20T09:00:00Z") });
    expect(latestDigestSlot(new Date("2026-11-20T08:59:59Z"), 9, "UTC").slot).toBe("2026-11-13");
    expect(latestDigestSlot(new Date("2026-11-22T12:00:00Z"), 9, "UTC").slot).toBe("2026-11-20");
    expect(latestDigestSlot(new Date("2026-11-19T23:00:00Z"), 9, "UTC").slot).toBe("2026-11-13");
    expect(latestDigestSlot(new Date("2026-11-27T10:00:00Z"), 9, "UTC").slot).toBe("2026-11-27");
  });

  it("reads the hour on the configured zone's wall clock, across daylight saving changes", () => {
    // New York: UTC-4 until 1 Nov 2026, UTC-5 after.
    expect(latestDigestSlot(new Date("2026-10-30T13:00:00Z"), 9, "America/New_York")).toEqual({
      slot: "2026-10-30",
      at: new Date("2026-10-30T13:00:00Z"),
    });
    expect(latestDigestSlot(new Date("2026-11-20T14:00:00Z"), 9, "America/New_York")).toEqual({
      slot: "2026-11-20",
      at: new Date("2026-11-20T14:00:00Z"),
    });
    expect(latestDigestSlot(new Date("2026-11-20T13:59:00Z"), 9, "America/New_York").slot).toBe("2026-11-13");
  });

  it("uses the zone's own date: Friday in Auckland starts on Thursday in UTC", () => {
    // 2026-11-20 08:00 in Auckland (UTC+13) is 2026-11-19 19:00 UTC, a Thursday there.
    expect(latestDigestSlot(new Date("2026-11-19T19:00:00Z"), 8, "Pacific/Auckland")).toEqual({
      slot: "2026-11-20",
      at: new Date("2026-11-19T19:00:00Z"),
    });
  });

  it("validates time zone names", () => {
    expect(isValidTimeZone("Europe/Berlin")).toBe(true);
    expect(isValidTimeZone("Mars/Olympus")).toBe(false);
  });
});

describe("latestDailySlot", () => {
  it("is today at the hour once it has passed, else yesterday, in the configured zone", () => {
    expect(latestDailySlot(new Date("2026-11-23T09:00:00Z"), 9, "UTC")).toEqual({ slot: "2026-11-23", at: new Date("2026-11-23T09:00:00Z") });
    expect(latestDailySlot(new Date("2026-11-23T08:59:59Z"), 9, "UTC")).toEqual({ slot: "2026-11-22", at: new Date("2026-11-22T09:00:00Z") });
    // 9:00 in New York is 14:00 UTC in November (EST).
    expect(latestDailySlot(new Date("2026-11-23T13:00:00Z"), 9, "America/New_York")).toEqual({ slot: "2026-11-22", at: new Date("2026-11-22T14:00:00Z") });
    expect(latestDailySlot(new Date("2026-11-23T14:00:00Z"), 9, "America/New_York").slot).toBe("2026-11-23");
  });
});
