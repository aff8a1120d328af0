import type { Kysely } from "kysely";
import type { Database, Metric } from "~/db/schema";
import { getOwnedProject } from "~/modules/projects/founder-projects.server";
import { conversionRate } from "./conversion";

export type ScanSeries = { qrCodeId: string; label: string; eventTag: string | null; points: { at: string; scans: number }[] };

export type ProjectAnalytics = {
  project: { id: string; title: string; slug: string; metrics: Metric[] };
  totalScans: number;
  uniqueScans: number;
  totalIntros: number;
  totalSubscribers: number;
  totalSignals: number;
  actions: number;
  conversionRate: number;
  qrCodes: { id: string; label: string; eventTag: string | null; totalScans: number; uniqueScans: number }[];
  /** Scans per QR code over time: hourly for the last 48 hours, daily before that (90 days at most). */
  scansOverTime: { hourly: ScanSeries[]; daily: ScanSeries[] };
};

const HOUR = 3_600_000;
/** How far back the chart reaches: the page stays the same size however old the project is. */
const HISTORY_DAYS = 90;

/**
 * Everything the analytics page shows, for the owner only. It reads maintained aggregates (one stats row, the
 * QR codes' counters and hourly scan buckets), never the scans themselves, so it stays fast at any volume.
 */
export async function loadProjectAnalytics(db: Kysely<Database>, ownerId: string, projectId: string, now = new Date()): Promise<ProjectAnalytics> {
  const project = await getOwnedProject(db, ownerId, projectId);
  const [stats, codes, hours] = await Promise.all([
    db.selectFrom("project_stats").selectAll().where("project_id", "=", project.id).executeTakeFirst(),
    db
      .selectFrom("qr_codes")
      .select(["id", "label", "event_tag", "total_scans", "unique_scans"])
      .where("project_id", "=", project.id)
      .orderBy("total_scans", "desc")
      .orderBy("created_at", "desc")
      .execute(),
    db
      .selectFrom("scan_hours")
      .select(["qr_code_id", "hour", "scans"])
      .where("project_id", "=", project.id)
      .where("hour", ">=", new Date(now.getTime() - HISTORY_DAYS * 24 * HOUR).toISOString())
      .orderBy("hour")
      .execute(),
  ]);

  const totalIntros = Number(stats?.intros ?? 0);
  const totalSubscribers = Number(stats?.subscribers ?? 0);
  const totalSignals = Number(stats?.signals ?? 0);
  const uniqueScans = Number(stats?.unique_scans ?? 0);
  const actions = totalIntros + totalSubscribers + totalSignals;

  const labels = new Map(codes.map((code) => [code.id, { label: code.label, eventTag: code.event_tag }]));
  const cutoff = now.getTime() - 48 * HOUR;
  const hourly = new Map<string, Map<string, number>>();
  const daily = new Map<string, Map<string, number>>();
  for (const row of hours) {
    const at = Date.parse(row.hour);
    const key = at >= cutoff ? row.hour : `${row.hour.slice(0, 10)}T00:00:00.000Z`;
    const target = at >= cutoff ? hourly : daily;
    const series = target.get(row.qr_code_id) ?? new Map<string, number>();
    series.set(key, (series.get(key) ?? 0) + Number(row.scans));
    target.set(row.qr_code_id, series);
  }
  const toSeries = (buckets: Map<string, Map<string, number>>): ScanSeries[] =>
    [...buckets].map(([qrCodeId, points]) => ({
      qrCodeId,
      label: labels.get(qrCodeId)?.label ?? (qrCodeId ? "Deleted QR code" : "Direct link"),
      eventTag: labels.get(qrCodeId)?.eventTag ?? null,
      points: [...points].map(([at, scans]) => ({ at, scans })),
    }));

  return {
    project: { id: project.id, title: project.title, slug: project.slug, metrics: project.metrics },
    totalScans: Number(stats?.total_scans ?? 0),
    uniqueScans,
    totalIntros,
    totalSubscribers,
    totalSignals,
    actions,
    conversionRate: conversionRate(actions, uniqueScans),
    qrCodes: codes.map((code) => ({ id: code.id, label: code.label, eventTag: code.event_tag, totalScans: Number(code.total_scans), uniqueScans: Number(code.unique_scans) })),
    scansOverTime: { hourly: toSeries(hourly), daily: toSeries(daily) },
  };
}
