// Which day a morning-after report is about, on the owner's clock (decision 66).
import { describe, expect, it } from "vitest";
import { dueReports, periodOf } from "~/modules/reports/report-days";

const iso = (reports: ReturnType<typeof dueReports>) => reports.map((report) => ({ kind: report.kind, day: report.day, from: report.from.toISOString(), to: report.to.toISOString() }));

describe("dueReports", () => {
  it("reports on yesterday and on the day eight days ago, from the hour on", () => {
    expect(iso(dueReports(new Date("2026-03-11T09:00:00.000Z"), 9, "UTC"))).toEqual([
      { kind: "day", day: "2026-03-10", from: "2026-03-10T00:00:00.000Z", to: "2026-03-11T00:00:00.000Z" },
      { kind: "week", day: "2026-03-03", from: "2026-03-03T00:00:00.000Z", to: "2026-03-11T00:00:00.000Z" },
    ]);
    // Before the hour, the latest slot is yesterday's: the report on the day before it.
    expect(dueReports(new Date("2026-03-11T08:59:59.000Z"), 9, "UTC")[0]!.day).toBe("2026-03-09");
  });

  it("uses the owner's clock: their midnight bounds the day, their hour sends it", () => {
    const [day] = dueReports(new Date("2026-04-10T16:05:00.000Z"), 9, "America/Los_Angeles");
    expect(day).toMatchObject({ day: "2026-04-09", from: new Date("2026-04-09T07:00:00.000Z"), to: new Date("2026-04-10T07:00:00.000Z") });
    expect(dueReports(new Date("2026-04-10T15:59:00.000Z"), 9, "America/Los_Angeles")[0]!.day).toBe("2026-04-08");
  });

  it("gives the day the clock springs forward its 23 hours", () => {
    const [day] = dueReports(new Date("2026-03-30T08:00:00.000Z"), 9, "Europe/Berlin");
    expect(day!.day).toBe("2026-03-29");
    expect(day!.to.getTime() - day!.from.getTime()).toBe(23 * 3_600_000);
  });

  it("names the period as the e-mail reads it", () => {
    const [day, week] = dueReports(new Date("2026-11-20T08:05:00.000Z"), 9, "Europe/Berlin");
    expect(periodOf(day!)).toBe("Thursday, November 19");
    expect(periodOf(week!)).toBe("November 12 to November 19");
  });
});
