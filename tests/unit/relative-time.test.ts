import { describe, expect, it } from "vitest";
import { formatActivityTime, formatPitchTime, formatWaitDuration } from "~/modules/time/relative-time";

const now = new Date("2026-11-20T12:00:00.000Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe("formatPitchTime", () => {
  it("shows 'just now' under one minute, also for a time slightly in the future", () => {
    expect(formatPitchTime(ago(0), now)).toBe("just now");
    expect(formatPitchTime(ago(59_999), now)).toBe("just now");
    expect(formatPitchTime(ago(-5_000), now)).toBe("just now");
  });

  it("shows whole minutes under an hour, singular and plural", () => {
    expect(formatPitchTime(ago(MIN), now)).toBe("1 minute ago");
    expect(formatPitchTime(ago(2 * MIN), now)).toBe("2 minutes ago");
    expect(formatPitchTime(ago(59 * MIN + 59_000), now)).toBe("59 minutes ago");
  });

  it("shows whole hours under a day", () => {
    expect(formatPitchTime(ago(HOUR), now)).toBe("1 hour ago");
    expect(formatPitchTime(ago(119 * MIN), now)).toBe("1 hour ago");
    expect(formatPitchTime(ago(23 * HOUR + 59 * MIN), now)).toBe("23 hours ago");
  });

  it("shows whole days under a week", () => {
    expect(formatPitchTime(ago(DAY), now)).toBe("1 day ago");
    expect(formatPitchTime(ago(6 * DAY + 23 * HOUR), now)).toBe("6 days ago");
  });

  it("shows the date from seven days on", () => {
    expect(formatPitchTime(ago(7 * DAY), now, "UTC")).toBe("Nov 13, 2026");
    expect(formatPitchTime("2026-11-03T09:30:00.000Z", now, "UTC")).toBe("Nov 3, 2026");
    expect(formatPitchTime("2025-01-31T23:30:00.000Z", now, "America/New_York")).toBe("Jan 31, 2025");
    expect(formatPitchTime("2025-01-31T23:30:00.000Z", now, "Asia/Tokyo")).toBe("Feb 1, 2025");
  });

  it("shows nothing for an unreadable time", () => {
    expect(formatPitchTime("not a date", now)).toBe("");
  });
});

describe("formatActivityTime", () => {
  it("shows 'just now' under one minute", () => {
    expect(formatActivityTime(ago(30_000), now, "UTC")).toBe("just now");
  });

  it("shows minutes, hours and days with singular and plural", () => {
    expect(formatActivityTime(ago(MIN), now, "UTC")).toBe("1 minute ago");
    expect(formatActivityTime(ago(45 * MIN), now, "UTC")).toBe("45 minutes ago");
    expect(formatActivityTime(ago(HOUR), now, "UTC")).toBe("1 hour ago");
    expect(formatActivityTime(ago(5 * HOUR), now, "UTC")).toBe("5 hours ago");
    expect(formatActivityTime(ago(DAY), now, "UTC")).toBe("1 day ago");
    expect(formatActivityTime(ago(3 * DAY), now, "UTC")).toBe("3 days ago");
  });

  it("shows the date on the founder's clock from seven days on", () => {
    const iso = "2026-11-01T03:00:00.000Z";
    expect(formatActivityTime(iso, new Date("2026-11-20T12:00:00Z"), "UTC")).toBe("Nov 1, 2026");
    expect(formatActivityTime(iso, new Date("2026-11-20T12:00:00Z"), "America/Denver")).toBe("Oct 31, 2026");
  });
});

describe("formatWaitDuration (the response clock)", () => {
  it("says minutes, then hours and minutes under two days, then days, rounded down", () => {
    const minutes = (n: number) => n * 60_000;
    expect(formatWaitDuration(0)).toBe("0 min");
    expect(formatWaitDuration(minutes(42) + 59_000)).toBe("42 min");
    expect(formatWaitDuration(minutes(60))).toBe("1 h");
    expect(formatWaitDuration(minutes(125))).toBe("2 h 5 min");
    expect(formatWaitDuration(minutes(47 * 60 + 59))).toBe("47 h 59 min");
    expect(formatWaitDuration(minutes(48 * 60))).toBe("2 days");
    expect(formatWaitDuration(-5_000)).toBe("0 min");
  });
});
