import type { Kysely } from "kysely";
import type { Database, Metric } from "~/db/schema";
import { dialectOf, utcDayOf } from "~/db/dialect.server";
import { DomainError } from "~/modules/errors.server";
import { NOT_FOUND_OR_DENIED } from "~/modules/projects/founder-projects.server";
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
  const project = await db
    .selectFrom("projects")
    .select(["id", "title", "slug", "metrics"])
    .where("id", "=", projectId)
    .where("owner_id", "=", ownerId)
    .executeTakeFirst();
  if (!project) throw new DomainError("not_found", NOT_FOUND_OR_DENIED);
  const cutoff = new Date(now.getTime() - 48 * HOUR).toISOString();
  const since = new Date(now.getTime() - HISTORY_DAYS * 24 * HOUR).toISOString();
  const day = utcDayOf(dialectOf(db), "hour");
  const [stats, codes, recentHours, earlierDays] = await Promise.all([
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
      .where("hour", ">=", cutoff)
      .orderBy("hour")
      .execute(),
    db
      .selectFrom("scan_hours")
      .select((eb) => ["qr_code_id", day.as("day"), eb.fn.sum<number>("scans").as("scans")])
      .where("project_id", "=", project.id)
      .where("hour", ">=", since)
      .where("hour", "<", cutoff)
      .groupBy(["qr_code_id", day])
      .orderBy(day)
      .execute(),
  ]);

  const totalIntros = Number(stats?.intros ?? 0);
  const totalSubscribers = Number(stats?.subscribers ?? 0);
  const totalSignals = Number(stats?.signals ?? 0);
  const uniqueScans = Number(stats?.unique_scans ?? 0);
  const actions = totalIntros + totalSubscribers + totalSignals;

  const labels = new Map(codes.map((code) => [code.id, { label: code.label, eventTag: code.event_tag }]));
  const toSeries = (rows: { qr_code_id: string; at: string; scans: number }[]): ScanSeries[] => {
    const byCode = new Map<string, { at: string; scans: number }[]>();
    for (const row of rows) {
      const points = byCode.get(row.qr_code_id) ?? [];
      points.push({ at: row.at, scans: Number(row.scans) });
      byCode.set(row.qr_code_id, points);
    }
    return [...byCode].map(([qrCodeId, points]) => ({
      qrCodeId,
      label: labels.get(qrCodeId)?.label ?? (qrCodeId ? "Deleted QR code" : "Direct link"),
      eventTag: labels.get(qrCodeId)?.eventTag ?? null,
      points,
    }));
  };

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
    scansOverTime: {
      hourly: toSeries(recentHours.map((row) => ({ qr_code_id: row.qr_code_id, at: row.hour, scans: row.scans }))),
      daily: toSeries(earlierDays.map((row) => ({ qr_code_id: row.qr_code_id, at: `${row.day}T00:00:00.000Z`, scans: row.scans }))),
    },
  };
}
