import { describe, expect, it } from "vitest";
import {
  bucketLabel,
  buildChartData,
  chartBuckets,
  chartSummary,
  DIRECT_LINK_COLOR,
  fileNameFromDisposition,
  labelIndexes,
  niceTicks,
  SERIES_COLORS,
  seriesColors,
} from "~/components/founder/insights/format";
import { plural } from "~/modules/formats/counts";
import { DAY_MS, HOUR_MS } from "~/modules/time/units";
import { formatFounderDate } from "~/modules/time/founder-dates";

const now = Date.parse("2026-03-10T12:34:56.000Z");
const hour = (iso: string) => ({ at: iso, scans: 0 });

describe("chartBuckets", () => {
  it("hourly: the 48 hours up to the current hour, gaps included", () => {
    const buckets = chartBuckets("hourly", [], now, "UTC");
    expect(buckets).toHaveLength(48);
    expect(new Date(buckets.at(-1)!).toISOString()).toBe("2026-03-10T12:00:00.000Z");
    expect(new Date(buckets[0]!).toISOString()).toBe("2026-03-08T13:00:00.000Z");
    expect(buckets[1]! - buckets[0]!).toBe(HOUR_MS);
  });

  it("hourly: widens to take in a point just outside the window", () => {
    const buckets = chartBuckets("hourly", [Date.parse("2026-03-08T12:00:00.000Z")], now, "UTC");
    expect(buckets).toHaveLength(49);
  });

  it("daily: nothing without points; else from the first day to the day the hourly window starts, at least a week", () => {
    expect(chartBuckets("daily", [], now, "UTC")).toEqual([]);
    const short = chartBuckets("daily", [Date.parse("2026-03-07T00:00:00.000Z")], now, "UTC");
    expect(short).toHaveLength(7);
    expect(new Date(short.at(-1)!).toISOString()).toBe("2026-03-08T00:00:00.000Z");
    const long = chartBuckets("daily", [Date.parse("2026-02-01T00:00:00.000Z")], now, "UTC");
    expect(new Date(long[0]!).toISOString()).toBe("2026-02-01T00:00:00.000Z");
    expect(long).toHaveLength(36);
    expect(long[1]! - long[0]!).toBe(DAY_MS);
  });
});

describe("buildChartData", () => {
  const input = [
    { qrCodeId: "b", label: "Flyer", eventTag: null, points: [{ at: "2026-03-10T09:00:00.000Z", scans: 2 }] },
    {
      qrCodeId: "a",
      label: "Booth",
      eventTag: "demo-day",
      points: [
        { at: "2026-03-10T09:00:00.000Z", scans: 3 },
        { at: "2026-03-09T20:00:00.000Z", scans: 1 },
      ],
    },
    { qrCodeId: "c", label: "Unused", eventTag: null, points: [hour("2026-03-10T10:00:00.000Z")] },
  ];
  const colors = seriesColors(["a", "b", "c"], input);

  it("aligns every series on the same buckets, fills gaps with zeros and adds them up", () => {
    const data = buildChartData("hourly", input, colors, now, "UTC");
    expect(data.buckets).toHaveLength(48);
    expect(data.total).toBe(6);
    const nine = data.buckets.indexOf(Date.parse("2026-03-10T09:00:00.000Z"));
    expect(data.totals[nine]).toBe(5);
    expect(data.totals.filter(Boolean)).toEqual([1, 5]);
  });

  it("orders series like the QR codes, keeps their colours and drops series without scans", () => {
    const data = buildChartData("hourly", input, colors, now, "UTC");
    expect(data.series.map((series) => series.label)).toEqual(["Booth", "Flyer"]);
    expect(data.series.map((series) => series.color)).toEqual([SERIES_COLORS[0], SERIES_COLORS[1]]);
    expect(data.series[0]!.total).toBe(4);
  });

  it("sums points that fall in the same day", () => {
    const daily = [
      {
        qrCodeId: "a",
        label: "Booth",
        eventTag: null,
        points: [
          { at: "2026-03-01T00:00:00.000Z", scans: 4 },
          { at: "2026-03-01T00:00:00.000Z", scans: 1 },
        ],
      },
    ];
    const data = buildChartData("daily", daily, colors, now, "UTC");
    expect(data.totals[0]).toBe(5);
    expect(data.buckets).toHaveLength(8);
  });
});

describe("seriesColors", () => {
  it("gives known codes the palette in order, the plain link slate, and deleted codes the next colours", () => {
    const colors = seriesColors(["x", "y"], [{ qrCodeId: "" }, { qrCodeId: "gone" }, { qrCodeId: "x" }]);
    expect(colors.get("x")).toBe(SERIES_COLORS[0]);
    expect(colors.get("y")).toBe(SERIES_COLORS[1]);
    expect(colors.get("gone")).toBe(SERIES_COLORS[2]);
    expect(colors.get("")).toBe(DIRECT_LINK_COLOR);
  });
});

describe("niceTicks", () => {
  it("uses whole steps of 1, 2 or 5 times a power of ten", () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(1)).toEqual([0, 1]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });
});

describe("labelIndexes", () => {
  it("spreads about `count` labels and always labels the newest bucket", () => {
    expect(labelIndexes(48, 4)).toEqual([11, 23, 35, 47]);
    expect(labelIndexes(3, 8)).toEqual([0, 1, 2]);
    expect(labelIndexes(0, 4)).toEqual([]);
  });
});

describe("chartSummary", () => {
  it("states the total, the busiest bucket and each code's share", () => {
    const input = [{ qrCodeId: "a", label: "Booth", eventTag: null, points: [{ at: "2026-03-10T09:00:00.000Z", scans: 3 }] }];
    const data = buildChartData("hourly", input, seriesColors(["a"], input), now, "UTC");
    expect(chartSummary(data, "UTC")).toBe("Scans over the last 48 hours, by QR code: 3 scans in total. Busiest hour: Mar 10, 9 AM with 3 scans. Booth: 3.");
    expect(chartSummary(buildChartData("daily", [], new Map(), now, "UTC"), "UTC")).toBe("Scans over earlier days: no scans.");
  });
});

describe("fileNameFromDisposition", () => {
  it("prefers the UTF-8 name, then the quoted one, then a bare token", () => {
    expect(fileNameFromDisposition(`attachment; filename="Caf_-contacts.csv"; filename*=UTF-8''Caf%C3%A9-contacts.csv`)).toBe("Café-contacts.csv");
    expect(fileNameFromDisposition('attachment; filename="My-Project-contacts.csv"')).toBe("My-Project-contacts.csv");
    expect(fileNameFromDisposition("attachment; filename=plain.csv")).toBe("plain.csv");
  });

  it("answers null without a usable name, and drops path separators", () => {
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(fileNameFromDisposition("attachment")).toBeNull();
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''%E0%A4%A`)).toBeNull();
    expect(fileNameFromDisposition('attachment; filename="../../etc/x.csv"')).toBe("....etcx.csv");
  });
});

describe("formatting", () => {
  it("formats dates in English, in the given time zone", () => {
    expect(formatFounderDate("2026-03-10T23:30:00.000Z", "UTC")).toBe("Mar 10, 2026");
    expect(formatFounderDate("2026-03-10T23:30:00.000Z", "Asia/Tokyo")).toBe("Mar 11, 2026");
    expect(formatFounderDate("not a date", "UTC")).toBe("");
  });

  it("puts day buckets on the founder's clock: a spring-forward day in Denver is 23 hours, Kolkata's days turn at 18:30 UTC", () => {
    const denver = chartBuckets("daily", [Date.parse("2026-03-07T12:00:00.000Z")], now + 3 * DAY_MS, "America/Denver");
    expect(denver.map((at) => new Date(at).toISOString())).toContain("2026-03-08T07:00:00.000Z");
    expect(denver[denver.indexOf(Date.parse("2026-03-08T07:00:00.000Z")) + 1]! - Date.parse("2026-03-08T07:00:00.000Z")).toBe(23 * HOUR_MS);
    const late = [{ qrCodeId: "a", label: "Booth", eventTag: null, points: [{ at: "2026-03-01T18:45:00.000Z", scans: 2 }, { at: "2026-03-01T18:15:00.000Z", scans: 1 }] }];
    const kolkata = buildChartData("daily", late, seriesColors(["a"], late), now, "Asia/Kolkata");
    // 18:15 UTC is still 1 March in Kolkata (23:45), 18:45 UTC is 2 March (00:15).
    expect(kolkata.buckets.slice(0, 2).map((at) => new Date(at).toISOString())).toEqual(["2026-02-28T18:30:00.000Z", "2026-03-01T18:30:00.000Z"]);
    expect(kolkata.totals.slice(0, 2)).toEqual([1, 2]);
    expect(chartSummary(kolkata, "Asia/Kolkata")).toContain("Busiest day: Mar 2 with 2 scans");
  });

  it("names hour buckets on the founder's clock, on the half hour in Kolkata", () => {
    const hourly = chartBuckets("hourly", [], now, "Asia/Kolkata");
    expect(hourly).toHaveLength(48);
    expect(new Date(hourly.at(-1)!).toISOString()).toBe("2026-03-10T12:30:00.000Z");
    expect(bucketLabel("hourly", hourly.at(-1)!, "Asia/Kolkata")).toBe("Mar 10, 6 PM");
  });

  it("pluralises", () => {
    expect(plural(1, "action")).toBe("1 action");
    expect(plural(0, "action")).toBe("0 actions");
    expect(plural(1200, "unique viewer")).toBe("1,200 unique viewers");
  });
});
