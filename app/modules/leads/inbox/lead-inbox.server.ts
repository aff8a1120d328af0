import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { onTeamOf, requireProjectRole } from "~/modules/access/project-access.server";
import { roleAllows, type ProjectRole } from "~/modules/access/roles";
import { DIRECT, readCodeNames, scanSource, UNKNOWN } from "~/modules/analytics/sources.server";
import { DIRECT_EVENT, NOT_ATTRIBUTED } from "~/modules/analytics/source-names";
import { countHeldSubmissions } from "~/modules/held/held-submissions.server";
import { readingOfLeads } from "~/modules/deck/lead-reading.server";
import type { LeadFilters } from "~/modules/leads/lead-forms";
import { cursorAfter, decodeLeadCursor, encodeLeadCursor, filteredLeads, pageAfter } from "./lead-query.server";
import { toLeadViews, type LeadRow, type LeadView } from "./lead-views.server";
import type { QualifyingQuestion } from "./qualifying-answer";
import { readQualifyingQuestion } from "./qualifying-question.server";

export const LEADS_PAGE_SIZE = 25;

export type LeadInbox = {
  project: { id: string; title: string; slug: string; role: ProjectRole };
  leads: LeadView[];
  /** The `after` value for the next page, or null on the last page. */
  nextCursor: string | null;
  /** Leads in the project, whatever the filters. */
  total: number;
  /** People who sent an intro, followed or signaled themselves, whatever the filters (met in person or not). */
  acted: number;
  /** People the team added at the booth or from the inbox, whatever the filters (some of them also acted). */
  metInPerson: number;
  /** Leads first seen since the owner's previous visit (all of them on the first visit). */
  newSinceLastVisit: number;
  /** Leads still waiting for a first response, whatever the filters. */
  unanswered: number;
  /** The sources a lead can have come through, for the filter: each QR code, the plain link, and none known. */
  events: { source: string; name: string }[];
  /** When the owner last looked before this sitting (null during the first): leads first seen after it are new. */
  previousVisitAt: string | null;
  /** Forms held for the owner's review (decision 50): not leads until accepted. */
  heldForReview: number;
  /** The project's qualifying question as it stands: a choice question's answers are the answer filter's choices. */
  question: QualifyingQuestion | null;
};

/**
 * The owner's lead inbox for one project: one page of leads (newest activity first, keyset paging, so a page costs
 * the same at 100,000 leads as at 100) with what each did, and the choices for the filters. Opening it records the
 * visit: leads first seen since the owner's previous sitting are new.
 */
export async function openLeadInbox(
  db: Kysely<Database>,
  ownerId: string,
  projectId: string,
  filters: LeadFilters,
  options: { pageSize?: number; now?: Date } = {},
): Promise<LeadInbox> {
  const project = await requireProjectRole(db, ownerId, projectId, "view");
  const addresses = roleAllows(project.role, "addresses");
  const pageSize = options.pageSize ?? LEADS_PAGE_SIZE;
  const rows = (await pageAfter(filteredLeads(db, project.id, filters, addresses), decodeLeadCursor(filters.after), pageSize + 1, filters).execute()) as LeadRow[];
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  const previousVisitAt = await recordInboxVisit(db, ownerId, project.id, options.now ?? new Date());
  const countLeads = (only: { since?: string; waiting?: boolean; acted?: boolean; met?: boolean }) => {
    let query = db.selectFrom("leads").select((eb) => eb.fn.countAll<number>().as("count")).where("project_id", "=", project.id);
    if (only.since) query = query.where("first_seen_at", ">", only.since);
    if (only.waiting) query = query.where("first_response_at", "is", null).where("awaiting_since", "is not", null);
    if (only.acted) query = query.where((eb) => eb.or([eb("did_intro", "=", true), eb("did_subscribe", "=", true), eb("did_signal", "=", true)]));
    if (only.met) query = query.where((eb) => eb.exists(eb.selectFrom("lead_captures").select("lead_captures.id").whereRef("lead_captures.lead_id", "=", "leads.id")));
    return query.executeTakeFirstOrThrow().then((row) => Number(row.count));
  };
  const codeNames = await readCodeNames(db, project.id);
  const [views, readings, total, acted, metInPerson, newSinceLastVisit, unanswered, heldForReview, question] = await Promise.all([
    toLeadViews(db, project.id, page, codeNames, ownerId),
    readingOfLeads(db, project.id, page.map((row) => row.id)),
    countLeads({}),
    countLeads({ acted: true }),
    countLeads({ met: true }),
    previousVisitAt ? countLeads({ since: previousVisitAt }) : null,
    countLeads({ waiting: true }),
    countHeldSubmissions(db, project.id),
    readQualifyingQuestion(db, project.id),
  ]);
  const leads = views.map(
    (view): LeadView => ({ ...view, hasEmail: view.email !== null, reading: readings.get(view.id) ?? null, ...(addresses ? {} : { email: null, phone: null }) }),
  );
  return {
    project: { id: project.id, title: project.title, slug: project.slug, role: project.role },
    leads,
    nextCursor: rows.length > pageSize && last ? encodeLeadCursor(cursorAfter(last, filters)) : null,
    total,
    acted,
    metInPerson,
    newSinceLastVisit: newSinceLastVisit ?? total,
    unanswered,
    events: [...[...codeNames].map(([id, name]) => ({ source: scanSource(id), name })), { source: DIRECT, name: DIRECT_EVENT }, { source: UNKNOWN, name: NOT_ATTRIBUTED }],
    previousVisitAt,
    heldForReview,
    question,
  };
}

/** Requests closer together than this are one sitting: saving a note or paging on does not end the visit. */
const SITTING_GAP_MS = 30 * 60_000;

/**
 * Records that the owner is looking at the inbox now, and answers when they last looked before this sitting (null
 * on the first). Within a sitting the answer stays the same, so 'New' marks survive a saved note or the next page,
 * and My Projects counts from the same look (`countNewLeads`).
 */
async function recordInboxVisit(db: Kysely<Database>, ownerId: string, projectId: string, now: Date): Promise<string | null> {
  const visit = await db
    .selectFrom("lead_inbox_views")
    .select(["seen_at", "previous_seen_at"])
    .where("user_id", "=", ownerId)
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  const sameSitting = visit !== undefined && now.getTime() - Date.parse(visit.seen_at) < SITTING_GAP_MS;
  const previousVisitAt = !visit ? null : sameSitting ? visit.previous_seen_at : visit.seen_at;
  const values = { seen_at: now.toISOString(), previous_seen_at: previousVisitAt };
  await db
    .insertInto("lead_inbox_views")
    .values({ user_id: ownerId, project_id: projectId, ...values })
    .onConflict((oc) => oc.columns(["user_id", "project_id"]).doUpdateSet(values))
    .execute();
  return previousVisitAt;
}

/**
 * 'N new' per project on My Projects and the dashboard: the same count the inbox shows as 'N new since you last
 * looked' at the same moment. While a sitting at the inbox lasts, from the look before it (null: every
 * lead is new); once it has ended, from its last look.
 */
export async function countNewLeads(db: Kysely<Database>, ownerId: string, now = new Date()): Promise<Record<string, number>> {
  const sittingStart = new Date(now.getTime() - SITTING_GAP_MS).toISOString();
  const rows = await db
    .selectFrom("leads")
    .innerJoin("projects", "projects.id", "leads.project_id")
    .leftJoin("lead_inbox_views", (join) =>
      join.onRef("lead_inbox_views.project_id", "=", "leads.project_id").on("lead_inbox_views.user_id", "=", ownerId),
    )
    .select(["leads.project_id", (eb) => eb.fn.countAll<number>().as("count")])
    .where(onTeamOf(ownerId))
    .where((eb) => {
      const lastLook = eb
        .case()
        .when("lead_inbox_views.seen_at", ">", sittingStart)
        .then(eb.ref("lead_inbox_views.previous_seen_at"))
        .else(eb.ref("lead_inbox_views.seen_at"))
        .end();
      return eb.or([eb(lastLook, "is", null), eb("leads.first_seen_at", ">", lastLook)]);
    })
    .groupBy("leads.project_id")
    .execute();
  return Object.fromEntries(rows.map((row) => [row.project_id, Number(row.count)]));
}
