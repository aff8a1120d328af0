import { plural } from "~/modules/formats/counts";
import { formatFounderDay, formatFounderDayHour } from "~/modules/time/founder-dates";
import { zonedDayStart, zonedDayStarts, zonedHourStart, zonedHourStarts } from "~/modules/time/founder-zone";
import { DAY_MS, HOUR_MS } from "~/modules/time/units";

/**
 * Pure helpers for the founder's screens (My Projects, Analytics, Dashboard): chart buckets and scales,
 * dates, and the CSV download's file name. No React here, so the unit tests cover them directly.
 */

/** Hours shown by 'Last 48 hours' (the server puts scans of the last 48 hours in the hourly series). */
export const HOURLY_WINDOW = 48;
/** 'Earlier' always spans at least a week, so a single day of scans is not one bar across the whole chart. */
export const MIN_DAILY_WINDOW = 7;

export type ChartRange = "hourly" | "daily";

/** One QR code's scans, as `loadProjectAnalytics` sends them (`ScanSeries`). */
export type SeriesInput = { qrCodeId: string; label: string; eventTag: string | null; points: { at: string; scans: number }[] };

export type ChartSeries = {
  qrCodeId: string;
  label: string;
  eventTag: string | null;
  color: string;
  /** Scans per bucket, aligned with `ChartData.buckets`. */
  values: number[];
  total: number;
};

export type ChartData = {
  range: ChartRange;
  /** Bucket start times (ms since epoch), oldest first, one per hour or per day on the founder's clock, gaps filled. */
  buckets: number[];
  series: ChartSeries[];
  /** All series added up, per bucket. */
  totals: number[];
  total: number;
};

/**
 * Series colours, in order: distinct in hue and lightness (they stay apart for the common colour-vision
 * deficiencies when read with the legend) and dark enough against white.
 */
export const SERIES_COLORS = ["#4f46e5", "#0891b2", "#16a34a", "#d97706", "#db2777", "#7c3aed", "#0d9488", "#ea580c", "#2563eb", "#65a30d"] as const;
/** Scans without a QR code (the plain pitch link). */
export const DIRECT_LINK_COLOR = "#64748b";

/**
 * A stable colour per QR code: codes in the analytics order (most scanned first) take the palette in turn,
 * the plain link is slate, and series of deleted codes follow the known codes. The same code keeps its colour
 * in both ranges, in the legend and in the breakdown table.
 */
export function seriesColors(qrCodeIds: string[], series: { qrCodeId: string }[]): Map<string, string> {
  const colors = new Map<string, string>();
  const order = [...qrCodeIds];
  for (const id of [...new Set(series.map((entry) => entry.qrCodeId))].sort()) if (id && !order.includes(id)) order.push(id);
  order.forEach((id, index) => colors.set(id, SERIES_COLORS[index % SERIES_COLORS.length]!));
  colors.set("", DIRECT_LINK_COLOR);
  return colors;
}

/**
 * Buckets for a range on the founder's clock (`timeZone`), gaps filled with zeros. 'hourly': the 48 hours up to the
 * current hour (widened if a point falls outside, say from clock skew). 'daily': from the first day with scans to
 * the day the hourly window starts, at least a week; no buckets when there are no points. Days are the zone's
 * calendar days (23 or 25 hours on a daylight-saving change), hours its wall-clock hours.
 */
export function chartBuckets(range: ChartRange, pointTimes: number[], now: number, timeZone: string): number[] {
  const valid = pointTimes.filter(Number.isFinite);
  if (range === "hourly") {
    const end = Math.max(now, ...valid);
    const start = Math.min(zonedHourStart(now, timeZone) - (HOURLY_WINDOW - 1) * HOUR_MS, ...valid);
    return zonedHourStarts(start, end, timeZone);
  }
  if (!valid.length) return [];
  const end = Math.max(now - HOURLY_WINDOW * HOUR_MS, ...valid);
  const start = Math.min(zonedDayStart(end, timeZone) - (MIN_DAILY_WINDOW - 1) * DAY_MS + 12 * HOUR_MS, ...valid);
  return zonedDayStarts(start, end, timeZone);
}

/** The chart's data for one range: every series on the same buckets, zeros where a code had no scans. */
export function buildChartData(range: ChartRange, input: SeriesInput[], colors: Map<string, string>, now: number, timeZone: string): ChartData {
  const floor = range === "hourly" ? (ms: number) => zonedHourStart(ms, timeZone) : (ms: number) => zonedDayStart(ms, timeZone);
  const parsed = input.map((series) => ({
    ...series,
    points: series.points
      .map((point) => ({ at: Date.parse(point.at), scans: Number(point.scans) || 0 }))
      .filter((point) => Number.isFinite(point.at))
      .map((point) => ({ ...point, at: floor(point.at) })),
  }));
  const buckets = chartBuckets(
    range,
    parsed.flatMap((series) => series.points.map((point) => point.at)),
    now,
    timeZone,
  );
  const index = new Map(buckets.map((at, i) => [at, i]));
  const order = [...colors.keys()];
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  const series: ChartSeries[] = parsed
    .map((entry) => {
      const values = buckets.map(() => 0);
      for (const point of entry.points) {
        const i = index.get(point.at);
        if (i !== undefined) values[i]! += point.scans;
      }
      return {
        qrCodeId: entry.qrCodeId,
        label: entry.label,
        eventTag: entry.eventTag,
        color: colors.get(entry.qrCodeId) ?? DIRECT_LINK_COLOR,
        values,
        total: values.reduce((sum, value) => sum + value, 0),
      };
    })
    .filter((entry) => entry.total > 0)
    .sort((a, b) => rank(a.qrCodeId) - rank(b.qrCodeId));
  const totals = buckets.map((_, i) => series.reduce((sum, entry) => sum + entry.values[i]!, 0));
  return { range, buckets, series, totals, total: totals.reduce((sum, value) => sum + value, 0) };
}

/** Y axis ticks from 0: whole numbers in steps of 1, 2 or 5 times a power of ten, about four steps. */
export function niceTicks(max: number, steps = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / steps;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, ([1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude);
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
  return ticks;
}

/** Which buckets get an axis label: about `count` of them, evenly spaced, always the last (the newest). */
export function labelIndexes(length: number, count: number): number[] {
  if (length <= 0) return [];
  const every = Math.max(1, Math.ceil(length / Math.max(1, count)));
  const indexes: number[] = [];
  for (let i = (length - 1) % every; i < length; i += every) indexes.push(i);
  return indexes;
}

/** A bucket's name on the founder's clock: 'Mar 5, 3 PM' for an hour, 'Mar 5' for a day. */
export function bucketLabel(range: ChartRange, ms: number, timeZone: string): string {
  return range === "hourly" ? formatFounderDayHour(ms, timeZone) : formatFounderDay(ms, timeZone);
}

/** The chart's text alternative: the range, the total, the busiest bucket and each code's share. */
export function chartSummary(data: ChartData, timeZone: string): string {
  const period = data.range === "hourly" ? "the last 48 hours" : "earlier days";
  if (data.total === 0) return `Scans over ${period}: no scans.`;
  let busiest = 0;
  data.totals.forEach((value, i) => {
    if (value > data.totals[busiest]!) busiest = i;
  });
  const unit = data.range === "hourly" ? "hour" : "day";
  const parts = data.series.map((series) => `${series.label}: ${series.total.toLocaleString("en-US")}`);
  return (
    `Scans over ${period}, by QR code: ${plural(data.total, "scan")} in total. ` +
    `Busiest ${unit}: ${bucketLabel(data.range, data.buckets[busiest]!, timeZone)} with ${plural(data.totals[busiest]!, "scan")}. ` +
    `${parts.join("; ")}.`
  );
}

/**
 * The file name from a `Content-Disposition` header: the RFC 5987 `filename*` when present (it carries the
 * exact UTF-8 name), else `filename`, else null. Path separators are dropped.
 */
export function fileNameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  let name: string | null = null;
  if (extended) {
    try {
      name = decodeURIComponent(extended[2]!.trim().replace(/^"|"$/g, ""));
    } catch {
      name = null;
    }
  }
  if (!name) {
    const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
    const bare = /filename\s*=\s*([^;\s"]+)/i.exec(header);
    name = quoted ? quoted[1]!.replace(/\\(.)/g, "$1") : bare ? bare[1]! : null;
  }
  const safe = name?.replace(/[\\/]/g, "").trim();
  return safe ? safe : null;
}
