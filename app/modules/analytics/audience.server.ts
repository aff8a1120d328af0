import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { localParts } from "~/modules/time/zoned-slots";

/** A label and how many scans carry it, most first. */
export type AudienceShare = { label: string; scans: number };

/** How the scans of one code (or of the whole project) arrived (decision 67). */
export type AudienceBreakdown = {
  scans: number;
  devices: AudienceShare[];
  browsers: AudienceShare[];
  /** The apps whose built-in browser opened the page; scans in a browser of their own are not listed. */
  apps: AudienceShare[];
  /** Scans per hour of the founder's day, 0 to 23. */
  hours: number[];
};

export type ScanAudience = {
  timeZone: string;
  /**
   * The minute of the founder's clock at which each counted hour begins: 0 in whole-hour zones, 30 in India, 45 in
   * Nepal. Hours are counted in UTC, so a bar labelled 15 in India holds 15:30 to 16:30.
   */
  hourStartsAtMinute: number;
  project: AudienceBreakdown;
  /** Per code ('' for the plain link), only those with scans counted here. */
  byCode: Map<string, AudienceBreakdown>;
};

/**
 * How and when a project's scans arrived, from the audience counters (never from the scans themselves): device,
 * browser and app splits per code, and the hour of day on the founder's clock. Each stored UTC hour is put in the
 * founder's hour it begins in, so a zone chosen later re-reads the same counters; in a half-hour zone that is the
 * hour half an hour before part of it. The caller checks who may see them.
 */
export async function loadScanAudience(db: Kysely<Database>, projectId: string, timeZone: string, now = new Date()): Promise<ScanAudience> {
  const [labelRows, hourRows] = await Promise.all([
    db
      .selectFrom("scan_audience_hours")
      .select((eb) => ["qr_code_id", "device", "browser", "in_app", eb.fn.sum<number>("scans").as("scans")])
      .where("project_id", "=", projectId)
      .groupBy(["qr_code_id", "device", "browser", "in_app"])
      .execute(),
    db
      .selectFrom("scan_audience_hours")
      .select((eb) => ["qr_code_id", "hour", eb.fn.sum<number>("scans").as("scans")])
      .where("project_id", "=", projectId)
      .groupBy(["qr_code_id", "hour"])
      .execute(),
  ]);

  const project = emptyTally();
  const byCode = new Map<string, Tally>();
  const tallyOf = (qrCodeId: string) => byCode.get(qrCodeId) ?? byCode.set(qrCodeId, emptyTally()).get(qrCodeId)!;
  for (const row of labelRows) {
    const scans = Number(row.scans);
    for (const tally of [project, tallyOf(row.qr_code_id)]) {
      tally.scans += scans;
      add(tally.devices, row.device, scans);
      add(tally.browsers, row.browser, scans);
      if (row.in_app) add(tally.apps, row.in_app, scans);
    }
  }
  for (const row of hourRows) {
    const hour = localParts(new Date(row.hour), timeZone).hour;
    const scans = Number(row.scans);
    project.hours[hour]! += scans;
    tallyOf(row.qr_code_id).hours[hour]! += scans;
  }

  return {
    timeZone,
    hourStartsAtMinute: (localParts(now, timeZone).minute - now.getUTCMinutes() + 60) % 60,
    project: breakdownOf(project),
    byCode: new Map([...byCode].sort(([a], [b]) => inCodeUnitOrder(a, b)).map(([id, tally]) => [id, breakdownOf(tally)])),
  };
}

type Tally = { scans: number; devices: Map<string, number>; browsers: Map<string, number>; apps: Map<string, number>; hours: number[] };

const emptyTally = (): Tally => ({ scans: 0, devices: new Map(), browsers: new Map(), apps: new Map(), hours: Array.from({ length: 24 }, () => 0) });

function add(counts: Map<string, number>, label: string, scans: number): void {
  counts.set(label, (counts.get(label) ?? 0) + scans);
}

/** Most scans first; equal counts by label, so every database and every read gives one order. */
function shares(counts: Map<string, number>): AudienceShare[] {
  return [...counts]
    .map(([label, scans]) => ({ label, scans }))
    .sort((a, b) => b.scans - a.scans || inCodeUnitOrder(a.label, b.label));
}

/** The same order on every database and in every locale (localeCompare's would depend on the server's ICU). */
function inCodeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function breakdownOf(tally: Tally): AudienceBreakdown {
  return { scans: tally.scans, devices: shares(tally.devices), browsers: shares(tally.browsers), apps: shares(tally.apps), hours: tally.hours };
}
