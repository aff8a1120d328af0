import type { Kysely } from "kysely";
import type { Database, Metric } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import type { ProjectRole } from "~/modules/access/roles";
import { countFormRefusals } from "~/modules/rate-limit/form-refusals.server";
import { countHeldSubmissions } from "~/modules/held/held-submissions.server";
import { conversionRate } from "./conversion";
import { ALL_SOURCES, DIRECT, nameSource, qrCodeIdOfSource, readCodesMovedAway, scanSource, UNKNOWN } from "./sources.server";
import { summariseResponseTimes, type ResponseTimes } from "./response-times";
import { codeName, codeNamesOf, DELETED_CODE, DIRECT_EVENT } from "./source-names";
import { founderTimeZone, zonedDayStarts, zonedHourStart, zonedHourStarts } from "~/modules/time/founder-zone";
import { zonedCalendarDay } from "~/modules/time/zoned-slots";
import { countScansInBuckets, type BucketedScans } from "./scan-buckets.server";
import { loadScanAudience, type AudienceBreakdown, type ScanAudience } from "./audience.server";
import { HOUR_MS } from "~/modules/time/units";

export type FunnelRow = {
  source: string;
  kind: "qr" | "direct" | "unknown";
  label: string;
  eventTag: string | null;
  scans: number;
  viewers: number;
  people: number;
  intros: number;
  subscribers: number;
  signals: number;
  /** Visitors who saved the pitch to their phone's list through this source. */
  saves: number;
  /** People who acted per unique viewer of this source, in percent (one decimal). */
  share: number;
  /** People the team met in person and added under this code (decision 62): shown apart, never in `people` or `share`. */
  metInPerson: number;
};

export type ScanSeries = { qrCodeId: string; label: string; eventTag: string | null; points: { at: string; scans: number }[] };

export type ProjectAnalytics = {
  project: { id: string; title: string; slug: string; metrics: Metric[]; role: ProjectRole };
  totalScans: number;
  uniqueScans: number;
  totalIntros: number;
  totalSubscribers: number;
  totalSignals: number;
  /** Visitors who saved the pitch to their phone's list, across sources (removing it later does not take it back). */
  totalSaves: number;
  actions: number;
  conversionRate: number;
  /** `endedOn`: the event's last day once it is past in the founder's zone ("Ended {date}"), else null. */
  /**
   * Each code's scans made for this project (decision 91), most first: the project's codes, and codes re-pointed to
   * another project since (`movedAway`) with the scans they brought here.
   */
  qrCodes: { id: string; label: string; eventTag: string | null; totalScans: number; uniqueScans: number; endedOn: string | null; movedAway: boolean }[];
  /** Distinct people (e-mail addresses) who acted, and their share of unique viewers, in percent. */
  peopleWhoActed: number;
  peopleShare: number;
  /** Per QR code, the plain link and (when it holds anything) actions that cannot be attributed (decision 16). */
  funnel: FunnelRow[];
  /** Public forms held for the founder's review now (decision 50): counted nowhere else until accepted. */
  heldForReview: number;
  /** Public forms refused beyond the ceilings on held forms in the last 7 days (decision 50): a flood's overflow. */
  refusedLastWeek: number;
  /** Page loads not counted as scans, by reason (decision 15). */
  excluded: { bots: number; previews: number; prefetches: number; ownerViews: number; appFetches: number };
  /**
   * Scans per QR code over time: hourly for the last 48 hours, daily before that (90 days at most). Each point's
   * `at` is the start of an hour or a day on the owner's clock (decision 53); buckets without scans are left out.
   */
  scansOverTime: { hourly: ScanSeries[]; daily: ScanSeries[] };
  /** The response clock per source of the people in the inbox (decision 55), named as the inbox names them. */
  responseTimes: (ResponseTimes & { name: string })[];
  /** How and when people scanned (decision 67): for the whole project and per code, most scanned code first, the plain link last. */
  audience: Omit<ScanAudience, "byCode"> & { codes: (AudienceBreakdown & { source: string; name: string })[] };
};

/** Hours in 'Last 48 hours' (the chart's HOURLY_WINDOW). */
const HOURLY_WINDOW = 48;
/** How far back the chart reaches: the page stays the same size however old the project is. */
const HISTORY_DAYS = 90;

/**
 * Everything the analytics page shows, for the owner only. It reads maintained aggregates (one stats row, the
 * QR codes' counters and hourly scan buckets), never the scans themselves, so it stays fast at any volume.
 */
export async function loadProjectAnalytics(db: Kysely<Database>, userId: string, projectId: string, now = new Date()): Promise<ProjectAnalytics> {
  const { role } = await requireProjectRole(db, userId, projectId, "view");
  const project = await db
    .selectFrom("projects")
    .innerJoin("users", "users.id", "projects.owner_id")
    .select(["projects.id", "projects.title", "projects.slug", "projects.metrics", "users.time_zone"])
    .where("projects.id", "=", projectId)
    .executeTakeFirstOrThrow();
  const timeZone = founderTimeZone(project.time_zone);
  // The owner's last 48 hours, and their days before that, back to the day 90 days ago began.
  const currentHour = zonedHourStart(now.getTime(), timeZone);
  const hourStarts = zonedHourStarts(currentHour - (HOURLY_WINDOW - 1) * HOUR_MS, currentHour, timeZone);
  const dayStarts = zonedDayStarts(now.getTime() - HISTORY_DAYS * 24 * HOUR_MS, hourStarts[0]! - 1, timeZone).filter((at) => at < hourStarts[0]!);
  const [stats, codes, recentHours, earlierDays, sources, refusedLastWeek, heldForReview, leadClocks, metInPerson, movedAway, audience] = await Promise.all([
    db.selectFrom("project_stats").selectAll().where("project_id", "=", project.id).executeTakeFirst(),
    db
      .selectFrom("qr_codes")
      .select(["id", "label", "event_tag", "total_scans", "unique_scans", "event_ends_on"])
      .where("project_id", "=", project.id)
      .orderBy("total_scans", "desc")
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute(),
    countScansInBuckets(db, project.id, hourStarts, currentHour + 2 * HOUR_MS),
    countScansInBuckets(db, project.id, dayStarts, hourStarts[0]!),
    db.selectFrom("source_stats").selectAll().where("project_id", "=", project.id).execute(),
    countFormRefusals(db, project.id, new Date(now.getTime() - 7 * 24 * HOUR_MS)),
    countHeldSubmissions(db, project.id),
    db
      .selectFrom("leads")
      .select(["source", "awaiting_since as awaitingSince", "first_response_at as firstResponseAt"])
      .where("project_id", "=", project.id)
      .where("awaiting_since", "is not", null)
      .$narrowType<{ awaitingSince: string }>()
      .orderBy("first_seen_at")
      .orderBy("id")
      .execute(),
    countMetInPerson(db, project.id),
    readCodesMovedAway(db, projectId),
    loadScanAudience(db, project.id, timeZone, now),
  ]);

  const totalIntros = Number(stats?.intros ?? 0);
  const totalSubscribers = Number(stats?.subscribers ?? 0);
  const totalSignals = Number(stats?.signals ?? 0);
  const uniqueScans = Number(stats?.unique_scans ?? 0);
  const actions = totalIntros + totalSubscribers + totalSignals;

  // Codes re-pointed to another project keep their name for the scans they brought here (decision 64).
  const labels = new Map([...movedAway, ...codes].map((code) => [code.id, { label: code.label, eventTag: code.event_tag }]));
  const today = zonedCalendarDay(now, timeZone);
  const toSeries = (counts: BucketedScans, starts: number[]): ScanSeries[] =>
    [...counts].map(([qrCodeId, values]) => ({
      qrCodeId,
      label: labels.get(qrCodeId)?.label ?? (qrCodeId ? "Deleted QR code" : "Direct link"),
      eventTag: labels.get(qrCodeId)?.eventTag ?? null,
      points: values.flatMap((scans, i) => (scans > 0 ? [{ at: new Date(starts[i]!).toISOString(), scans }] : [])),
    }));

  const codeNames = codeNamesOf([...movedAway, ...codes]);
  const responseTimes = summariseResponseTimes(leadClocks, now).map((row) => ({ ...row, name: nameSource(row.source, codeNames).name }));

  const peopleWhoActed = Number(sources.find((row) => row.source === ALL_SOURCES)?.people ?? 0);

  return {
    project: { id: project.id, title: project.title, slug: project.slug, metrics: project.metrics, role },
    peopleWhoActed,
    peopleShare: conversionRate(peopleWhoActed, uniqueScans),
    funnel: funnelRows(codes, sources, metInPerson, movedAway),
    refusedLastWeek,
    heldForReview,
    excluded: {
      bots: Number(stats?.excluded_bots ?? 0),
      previews: Number(stats?.excluded_previews ?? 0),
      prefetches: Number(stats?.excluded_prefetches ?? 0),
      ownerViews: Number(stats?.excluded_owner_views ?? 0),
      appFetches: Number(stats?.excluded_app_fetches ?? 0),
    },
    totalScans: Number(stats?.total_scans ?? 0),
    uniqueScans,
    totalIntros,
    totalSubscribers,
    totalSignals,
    totalSaves: Number(sources.find((row) => row.source === ALL_SOURCES)?.saves ?? 0),
    actions,
    conversionRate: conversionRate(actions, uniqueScans),
    qrCodes: scansByCode(codes, movedAway, sources, today),
    scansOverTime: {
      hourly: toSeries(recentHours, hourStarts),
      daily: toSeries(earlierDays, dayStarts),
    },
    responseTimes,
    audience: audienceByCode(audience, codes, labels),
  };
}

/** The Scans by QR Code rows: this project's part of each code's scans, from the project's source counters. */
function scansByCode(
  codes: readonly { id: string; label: string; event_tag: string | null; event_ends_on: string | null }[],
  movedAway: readonly { id: string; label: string; event_tag: string | null }[],
  sources: readonly { source: string; scans: number | string; viewers: number | string }[],
  today: string,
): ProjectAnalytics["qrCodes"] {
  const bySource = new Map(sources.map((row) => [row.source, row]));
  const here = (id: string) => ({ totalScans: Number(bySource.get(scanSource(id))?.scans ?? 0), uniqueScans: Number(bySource.get(scanSource(id))?.viewers ?? 0) });
  const rows = [
    ...codes.map((code) => ({
      id: code.id,
      label: code.label,
      eventTag: code.event_tag,
      ...here(code.id),
      endedOn: code.event_ends_on !== null && code.event_ends_on < today ? code.event_ends_on : null,
      movedAway: false,
    })),
    ...movedAway.map((code) => ({ id: code.id, label: code.label, eventTag: code.event_tag, ...here(code.id), endedOn: null, movedAway: true })).filter((row) => row.totalScans > 0),
  ];
  // Stable: codes with as many scans keep the list's order (newest first).
  return rows.sort((a, b) => b.totalScans - a.totalScans);
}

/** The audience per code in the order of the codes' list (codes gone since after them), the plain link last. */
function audienceByCode(
  audience: ScanAudience,
  codes: readonly { id: string }[],
  labels: ReadonlyMap<string, { label: string; eventTag: string | null }>,
): ProjectAnalytics["audience"] {
  const { byCode, ...rest } = audience;
  const order = [...codes.map((code) => code.id), ...[...byCode.keys()].filter((id) => id && !codes.some((code) => code.id === id)), ""];
  const nameOf = (qrCodeId: string) => {
    if (!qrCodeId) return DIRECT_EVENT;
    const label = labels.get(qrCodeId);
    return label ? codeName(label.label, label.eventTag) : DELETED_CODE;
  };
  return {
    ...rest,
    codes: order.flatMap((qrCodeId) => {
      const breakdown = byCode.get(qrCodeId);
      return breakdown ? [{ ...breakdown, source: scanSource(qrCodeId || null), name: nameOf(qrCodeId) }] : [];
    }),
  };
}

type SourceRow = { source: string; scans: number; viewers: number; intros: number; subscribers: number; signals: number; people: number; saves: number };

/** One row per QR code (even unscanned), one for the plain link, and one for unattributed actions when there are any. */
function funnelRows(
  codes: { id: string; label: string; event_tag: string | null }[],
  sources: SourceRow[],
  metInPerson: ReadonlyMap<string, number>,
  movedAway: { id: string; label: string; event_tag: string | null }[] = [],
): FunnelRow[] {
  const bySource = new Map(sources.map((row) => [row.source, row]));
  const row = (source: string, kind: FunnelRow["kind"], label: string, eventTag: string | null): FunnelRow => {
    const counts = bySource.get(source);
    const viewers = Number(counts?.viewers ?? 0);
    const people = Number(counts?.people ?? 0);
    return {
      source,
      kind,
      label,
      eventTag,
      scans: Number(counts?.scans ?? 0),
      viewers,
      people,
      intros: Number(counts?.intros ?? 0),
      subscribers: Number(counts?.subscribers ?? 0),
      signals: Number(counts?.signals ?? 0),
      saves: Number(counts?.saves ?? 0),
      share: conversionRate(people, viewers),
      metInPerson: metInPerson.get(source) ?? 0,
    };
  };
  const known = new Set(codes.map((code) => scanSource(code.id)));
  const rows = codes.map((code) => row(scanSource(code.id), "qr", code.label, code.event_tag));
  // Codes deleted or re-pointed after they were scanned keep their numbers here; a re-pointed one keeps its name.
  const moved = new Map(movedAway.map((code) => [scanSource(code.id), code]));
  for (const source of bySource.keys()) {
    if (!qrCodeIdOfSource(source) || known.has(source)) continue;
    const code = moved.get(source);
    rows.push(code ? row(source, "qr", code.label, code.event_tag) : row(source, "qr", "Deleted QR code", null));
  }
  rows.push(row(DIRECT, "direct", "Direct link", null));
  const unknown = row(UNKNOWN, "unknown", "Not attributed", null);
  if (unknown.scans || unknown.people || unknown.saves) rows.push(unknown);
  return rows;
}

/** The analytics page's headline figures restricted to what happened from `since` on (the booth's "today"), or up to `until`. */
export type CountsSince = { since: string; scans: number; peopleWhoActed: number; intros: number; signals: number };

/**
 * Scans (from the hourly buckets, exact also from a half-hour zone's midnight), people who acted (distinct contacts, that is
 * e-mail addresses, with an intro or a signal since, or whose first action was since, which covers a new
 * subscriber), intros and signals, for one project. Four indexed reads; the caller checks who may see them.
 */
export async function countProjectActivitySince(db: Kysely<Database>, projectId: string, since: Date, until?: Date): Promise<CountsSince> {
  const from = since.toISOString();
  // Without `until`, a day ahead is later than anything stored by now.
  const to = (until ?? new Date(since.getTime() + 2 * 24 * HOUR_MS)).toISOString();
  const [scans, intros, signals, people] = await Promise.all([
    countScansInBuckets(db, projectId, [since.getTime()], Date.parse(to)),
    db
      .selectFrom("intros")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("project_id", "=", projectId)
      .where("created_at", ">=", from)
      .where("created_at", "<", to)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("signals")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("project_id", "=", projectId)
      .where("created_at", ">=", from)
      .where("created_at", "<", to)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom(
        db
          .selectFrom("intros")
          .select("contact_id")
          .where("project_id", "=", projectId)
          .where("created_at", ">=", from)
          .where("created_at", "<", to)
          .union(db.selectFrom("signals").select("contact_id").where("project_id", "=", projectId).where("created_at", ">=", from).where("created_at", "<", to))
          .union(db.selectFrom("contacts").select("id as contact_id").where("project_id", "=", projectId).where("created_at", ">=", from).where("created_at", "<", to))
          .as("acted"),
      )
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow(),
  ]);
  const scanCount = [...scans.values()].reduce((sum, values) => sum + values[0]!, 0);
  return { since: from, scans: scanCount, peopleWhoActed: Number(people.count), intros: Number(intros.count), signals: Number(signals.count) };
}

/** People met in person per source (distinct leads): the funnel shows them beside, never inside, visitors' numbers. */
export async function countMetInPerson(db: Kysely<Database>, projectId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("lead_captures")
    .select((eb) => ["source", eb.fn.count<number>("lead_id").distinct().as("people")])
    .where("project_id", "=", projectId)
    .groupBy("source")
    .execute();
  return new Map(rows.map((row) => [row.source, Number(row.people)]));
}
