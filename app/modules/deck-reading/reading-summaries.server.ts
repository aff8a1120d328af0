import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { DIRECT, leadEventOf } from "~/modules/analytics/sources.server";
import { queueAlert } from "~/modules/founder-alerts/founder-alerts.server";
import { pluralWord } from "~/modules/formats/counts";
import { RecurringPass } from "~/modules/jobs/recurring-pass.server";
import type { Logger } from "~/modules/logging/logger.server";

/** A visit ends this long after its last beat; only then is it summed up. */
export const VISIT_END_MS = 2 * 60_000;
/** At most one summary per viewer in this long, measured between the ends of the visits summed up. */
export const VISIT_SUMMARY_QUIET_MS = 10 * 60_000;
/** Undecided views one pass looks at. */
const CANDIDATES = 200;
/** What a reader's visit is called where the source names no code. */
const YOUR_PAGE = "your page";

type VisitView = { id: string; project_id: string; deck_id: string; viewer_fingerprint: string | null; address_hash: string | null; source: string; ms: number; started_at: string; last_beat_at: string };

/** "45 s", "4 min": a visit's reading time as a one-line alert tells it. */
export function visitTimeText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/** "Someone at Booth · demoday-2026 read 12 of 14 pages in 4 min". */
export function visitSummaryText(where: string, pagesRead: number, pageCount: number, ms: number): string {
  return `Someone at ${where} read ${pagesRead} of ${pageCount} ${pluralWord(pageCount, "page")} in ${visitTimeText(ms)}`;
}

/** Where a reader came from, for the summary: the QR code's name, or "your page" for the plain link or not known. */
async function whereOf(db: Kysely<Database>, projectId: string, source: string): Promise<string> {
  if (source === DIRECT) return YOUR_PAGE;
  return (await leadEventOf(db, projectId, source)) ?? YOUR_PAGE;
}

/**
 * The views that are one viewer's visit, not yet decided: the viewer's (their cookie, else their address) reader
 * views tied to no lead. A view with neither is a visit of its own.
 */
function visitViews(trx: Kysely<Database>, view: VisitView) {
  return trx
    .selectFrom("deck_views")
    .select(["id", "project_id", "deck_id", "viewer_fingerprint", "address_hash", "source", "ms", "started_at", "last_beat_at"])
    .where("project_id", "=", view.project_id)
    .where("summary_state", "is", null)
    .where("audience", "=", "reader")
    .where("lead_id", "is", null)
    .where((eb) =>
      view.viewer_fingerprint
        ? eb("viewer_fingerprint", "=", view.viewer_fingerprint)
        : view.address_hash
          ? eb.and([eb("viewer_fingerprint", "is", null), eb("address_hash", "=", view.address_hash)])
          : eb("id", "=", view.id),
    )
    .orderBy("started_at")
    .orderBy("id");
}

/** Whether the same viewer had a visit summed up that ended less than VISIT_SUMMARY_QUIET_MS before `end`. */
async function summedUpLately(trx: Kysely<Database>, view: VisitView, end: string): Promise<boolean> {
  if (!view.viewer_fingerprint && !view.address_hash) return false;
  const since = new Date(new Date(end).getTime() - VISIT_SUMMARY_QUIET_MS).toISOString();
  const row = await trx
    .selectFrom("deck_views")
    .select("id")
    .where("project_id", "=", view.project_id)
    .where("summary_state", "=", "sent")
    .where("last_beat_at", ">", since)
    .where((eb) =>
      view.viewer_fingerprint
        ? eb("viewer_fingerprint", "=", view.viewer_fingerprint)
        : eb.and([eb("viewer_fingerprint", "is", null), eb("address_hash", "=", view.address_hash)]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** Thrown inside a visit's transaction when another pass decided some of its views first: nothing of it is kept. */
class TakenElsewhere extends Error {}

type Decision = "sent" | "skipped" | "open" | "taken";

/**
 * Decides one viewer's visit, in one transaction: still open (a beat in the last VISIT_END_MS: left for a later
 * pass), or summed up in one alert ("Someone at … read 12 of 14 pages in 4 min"), or skipped (no time counted, or the
 * viewer had one within VISIT_SUMMARY_QUIET_MS). Every view of the visit gets its state by a conditional update
 * (`summary_state` still null), so of two passes at once one decides it and the other's transaction is undone.
 */
async function decideVisit(db: Kysely<Database>, first: VisitView, now: Date): Promise<Decision> {
  const endedBy = now.getTime() - VISIT_END_MS;
  try {
    return await db.transaction().execute(async (trx) => {
      const views = await visitViews(trx, first).execute();
      if (views.length === 0) return "taken";
      if (views.some((view) => new Date(view.last_beat_at).getTime() > endedBy)) return "open";
      const latest = views.reduce((a, b) => (new Date(b.last_beat_at).getTime() > new Date(a.last_beat_at).getTime() ? b : a));
      const ms = views.reduce((sum, view) => sum + Number(view.ms), 0);
      const skip = ms === 0 || (await summedUpLately(trx, first, latest.last_beat_at));
      const decision = skip ? "skipped" : "sent";
      const ids = views.map((view) => view.id);
      const claimed = await trx.updateTable("deck_views").set({ summary_state: decision }).where("id", "in", ids).where("summary_state", "is", null).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== ids.length) throw new TakenElsewhere();
      if (skip) return decision;
      await queueSummary(trx, views, latest, ms, now);
      return decision;
    });
  } catch (error) {
    if (error instanceof TakenElsewhere) return "taken";
    throw error;
  }
}

/** Queues the visit's alert: its pages are those read of the deck of its latest view, its time all it counted. */
async function queueSummary(trx: Transaction<Database>, views: VisitView[], latest: VisitView, ms: number, now: Date): Promise<void> {
  const onDeck = views.filter((view) => view.deck_id === latest.deck_id).map((view) => view.id);
  const [pages, deck, project] = await Promise.all([
    trx.selectFrom("deck_view_pages").select("page_number").distinct().where("view_id", "in", onDeck).where("ms", ">", 0).execute(),
    trx.selectFrom("decks").select("page_count").where("id", "=", latest.deck_id).executeTakeFirst(),
    trx.selectFrom("projects").select("title").where("id", "=", latest.project_id).executeTakeFirstOrThrow(),
  ]);
  // Where the visit began: its first view's source, unless only a later one knows it.
  const source = views.find((view) => view.source !== "unknown")?.source ?? views[0]!.source;
  const title = visitSummaryText(await whereOf(trx, latest.project_id, source), pages.length, deck?.page_count ?? pages.length, ms);
  const path = `/project/${encodeURIComponent(latest.project_id)}/deck`;
  await queueAlert(trx, {
    id: `deck-visit:${latest.id}`,
    projectId: latest.project_id,
    kind: "reading",
    message: { title, body: project.title, path, tag: `deck-visit-${latest.id}`, link: "Open the deck" },
    at: now.toISOString(),
  });
}

export type VisitSummaryRun = { sent: number; skipped: number };

/**
 * Sums up the visits of readers who are no lead once each has ended (decision 99): the undecided reader views
 * silent for VISIT_END_MS, one viewer's views together as one visit. Team and bot views (`none`) and leads' views
 * (alerted as they open) are never looked at.
 */
export async function summarizeEndedVisits(db: Kysely<Database>, now = new Date()): Promise<VisitSummaryRun> {
  const candidates = await db
    .selectFrom("deck_views")
    .select(["id", "project_id", "deck_id", "viewer_fingerprint", "address_hash", "source", "ms", "started_at", "last_beat_at"])
    .where("summary_state", "is", null)
    .where("audience", "=", "reader")
    .where("lead_id", "is", null)
    .where("last_beat_at", "<=", new Date(now.getTime() - VISIT_END_MS).toISOString())
    .orderBy("last_beat_at")
    .limit(CANDIDATES)
    .execute();
  const run: VisitSummaryRun = { sent: 0, skipped: 0 };
  const seen = new Set<string>();
  for (const view of candidates) {
    const viewer = `${view.project_id} ${view.viewer_fingerprint ? `v:${view.viewer_fingerprint}` : view.address_hash ? `a:${view.address_hash}` : `id:${view.id}`}`;
    if (seen.has(viewer)) continue;
    seen.add(viewer);
    const decision = await decideVisit(db, view, now);
    if (decision === "sent" || decision === "skipped") run[decision] += 1;
  }
  return run;
}

/** Sums up ended visits every `intervalMs` (across instances: each visit is decided once); wakes the alerts it queued. */
export class VisitSummaryPass extends RecurringPass<VisitSummaryRun> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly options: { clock?: () => Date; onQueued?: () => void } = {},
  ) {
    super();
  }

  override start(intervalMs = 20_000): void {
    super.start(intervalMs);
  }

  protected async pass(): Promise<VisitSummaryRun> {
    const run = await summarizeEndedVisits(this.db, this.options.clock?.() ?? new Date());
    if (run.sent > 0) this.options.onQueued?.();
    return run;
  }

  protected passFailed(error: unknown): void {
    this.logger.error({ err: error }, "summing up deck visits failed");
  }
}
