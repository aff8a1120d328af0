import { describe, expect, it } from "vitest";
import { summariseResponseTimes } from "~/modules/analytics/response-times";

const now = new Date("2026-11-20T12:00:00.000Z");
const minutesBefore = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
const lead = (source: string, seenMinutesAgo: number, answeredAfterMinutes: number | null) => ({
  source,
  awaitingSince: minutesBefore(seenMinutesAgo),
  firstResponseAt: answeredAfterMinutes === null ? null : minutesBefore(seenMinutesAgo - answeredAfterMinutes),
});

describe("the response clock per event", () => {
  it("counts a waiting lead against a mark only once the mark has passed, and takes the median of those answered", () => {
    const rows = summariseResponseTimes(
      [
        lead("qr:a", 3_000, 18), // answered in 18 min
        lead("qr:a", 2_000, 90), // answered in 1.5 h: within the day, not the hour
        lead("qr:a", 1_600, 30 * 60), // answered after 30 h: neither
        lead("qr:a", 120, null), // waiting 2 h: late for the hour, not yet for the day
        lead("qr:a", 10, null), // waiting 10 min: not yet late for anything
        lead("direct", 5, 1),
      ],
      now,
    );
    expect(rows).toEqual([
      { source: "qr:a", leads: 5, withinHour: { answered: 1, of: 4 }, withinDay: { answered: 2, of: 3 }, waiting: 2, medianMs: 90 * 60_000 },
      { source: "direct", leads: 1, withinHour: { answered: 1, of: 1 }, withinDay: { answered: 1, of: 1 }, waiting: 0, medianMs: 60_000 },
    ]);
  });

  it("has no median when no one is answered, and the mean of the middle two for an even count", () => {
    expect(summariseResponseTimes([lead("unknown", 30, null)], now)[0]).toMatchObject({ medianMs: null, withinHour: { answered: 0, of: 0 } });
    expect(summariseResponseTimes([lead("direct", 100, 10), lead("direct", 100, 20)], now)[0]!.medianMs).toBe(15 * 60_000);
  });
});
