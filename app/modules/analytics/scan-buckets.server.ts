import type { Kysely } from "kysely";
import { dialectOf, utcQuarterHourOf } from "~/db/dialect.server";
import type { Database } from "~/db/schema";
import { bucketIndex } from "~/modules/time/founder-zone";
import { HOUR_MS } from "~/modules/time/units";

/** Scans per QR code ('' for the plain link), one count per bucket. */
export type BucketedScans = Map<string, number[]>;

/**
 * A project's scans from `starts[0]` up to `end`, counted into buckets that start at `starts` (the founder's days or
 * hours, decision 53). Whole UTC hours come from the hourly aggregate; an hour a bucket boundary cuts (a half-hour or
 * 45-minute zone) is counted again from the scans themselves, by quarter hour, so the split is exact on SQLite and
 * PostgreSQL alike. In a whole-hour zone that second read never happens.
 */
export async function countScansInBuckets(db: Kysely<Database>, projectId: string, starts: number[], end: number): Promise<BucketedScans> {
  const counts: BucketedScans = new Map();
  if (!starts.length || end <= starts[0]!) return counts;
  const add = (qrCodeId: string, at: number, scans: number) => {
    const index = bucketIndex(starts, at);
    if (index < 0 || at >= end) return;
    let row = counts.get(qrCodeId);
    if (!row) counts.set(qrCodeId, (row = starts.map(() => 0)));
    row[index]! += scans;
  };
  const bucketEnd = (index: number) => (index + 1 < starts.length ? starts[index + 1]! : end);
  const firstHour = Math.floor(starts[0]! / HOUR_MS) * HOUR_MS;
  const hours = await db
    .selectFrom("scan_hours")
    .select(["qr_code_id", "hour", "scans"])
    .where("project_id", "=", projectId)
    .where("hour", ">=", new Date(firstHour).toISOString())
    .where("hour", "<", new Date(end).toISOString())
    .execute();
  const cutHours = new Set<number>();
  for (const row of hours) {
    const at = Date.parse(row.hour);
    const index = bucketIndex(starts, at);
    if (index >= 0 && at + HOUR_MS <= bucketEnd(index)) add(row.qr_code_id, at, Number(row.scans));
    else cutHours.add(at);
  }
  if (!cutHours.size) return counts;

  // Neighbouring cut hours are read as one range; each range is one indexed read of the scans.
  const ranges: [number, number][] = [];
  for (const at of [...cutHours].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last && last[1] === at) last[1] = at + HOUR_MS;
    else ranges.push([at, at + HOUR_MS]);
  }
  const quarter = utcQuarterHourOf(dialectOf(db), "scanned_at");
  const read = (range: [number, number]) =>
    db
      .selectFrom("scans")
      .select((eb) => [eb.fn.coalesce("qr_code_id", eb.val("")).as("qr_code_id"), quarter.as("quarter"), eb.fn.countAll<number>().as("scans")])
      .where("project_id", "=", projectId)
      .where("scanned_at", ">=", new Date(range[0]).toISOString())
      .where("scanned_at", "<", new Date(range[1]).toISOString())
      .groupBy(["qr_code_id", quarter]);
  const [first, ...rest] = ranges.map(read);
  const quarters = await rest.reduce((query, next) => query.unionAll(next), first!).execute();
  for (const row of quarters) add(row.qr_code_id, Date.parse(`${row.quarter}:00.000Z`), Number(row.scans));
  return counts;
}
