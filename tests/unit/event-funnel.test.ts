import { describe, expect, it } from "vitest";
import { BEST_EVENT_MIN_VIEWERS, bestEvent, sortFunnel } from "~/components/founder/insights/event-funnel";
import type { FunnelRow } from "~/modules/analytics/analytics.server";

const row = (label: string, counts: Partial<FunnelRow>): FunnelRow => ({
  source: label,
  kind: "qr",
  label,
  eventTag: null,
  scans: 0,
  viewers: 0,
  people: 0,
  saves: 0,
  intros: 0,
  subscribers: 0,
  signals: 0,
  share: 0,
  metInPerson: 0,
  ...counts,
});

describe("the funnel by event", () => {
  const booth = row("Booth", { scans: 40, viewers: 20, people: 8, share: 40 });
  const badge = row("Badge", { scans: 90, viewers: 50, people: 10, share: 20 });
  const flyer = row("Flyer", { scans: 5, viewers: 5, people: 2, share: 40 });
  const unknown = row("Not attributed", { kind: "unknown", people: 9, share: 0 });

  it("names the event with the largest share of viewers who acted, more people breaking a tie", () => {
    expect(bestEvent([badge, flyer, booth, unknown])).toBe(booth);
  });

  it("names no code with fewer than 10 unique viewers, however large its share", () => {
    const lucky = row("Lucky", { scans: 9, viewers: 9, people: 6, share: 66.7 });
    expect(bestEvent([badge, lucky, booth])).toBe(booth);
    expect(bestEvent([lucky, flyer])).toBeNull();
    expect(bestEvent([row("Ten", { scans: 10, viewers: BEST_EVENT_MIN_VIEWERS, people: 1, share: 10 })])?.label).toBe("Ten");
  });

  it("has no best event before anyone acted", () => {
    expect(bestEvent([row("Booth", { scans: 3, viewers: 3 })])).toBeNull();
  });

  it("sorts by the chosen column, largest first", () => {
    expect(sortFunnel([booth, badge, flyer], "scans").map((r) => r.label)).toEqual(["Badge", "Booth", "Flyer"]);
    expect(sortFunnel([flyer, badge, booth], "share").map((r) => r.label)).toEqual(["Booth", "Flyer", "Badge"]);
  });
});
