import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool, type UpdateObject } from "kysely";
import { countHeldSubmissions } from "~/modules/held/held-submissions.server";
import type { Database, LeadStatus } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { isStorableText } from "~/modules/forms/storable-text";
import { onTeamOf, requireProjectRole } from "~/modules/access/project-access.server";
import { roleAllows, type ProjectRole } from "~/modules/access/roles";
import { DIRECT, nameSource, readCodeNames, scanSource, UNKNOWN } from "~/modules/analytics/sources.server";
import { DIRECT_EVENT, NOT_ATTRIBUTED, type SourceName } from "~/modules/analytics/source-names";
import { LEAD_NOT_FOUND_MESSAGE, type LeadAction, type LeadTemperatureInput, type LeadFilters, type LeadTriageInput } from "./lead-forms";
import type { LeadTemperature } from "~/modules/formats/lead-triage";
import { isRecordId } from "~/modules/http/id-shape";
import type { QualifyingAnswer, QualifyingQuestion } from "./qualifying-answer";
import { readQualifyingQuestion } from "./qualifying-question.server";
import { capturesOf } from "./lead-captures.server";
import type { SignalDetails } from "~/modules/signals/signal-form";

export const LEADS_PAGE_SIZE = 25;

export type LeadActivityItem =
  | { kind: "intro"; at: string; roleTags: string[]; linkedinUrl: string | null; note: string | null }
  /** `at` is null when they followed from an earlier contact (an intro or signal), whose row keeps no date for it. */
  | { kind: "subscription"; at: string | null }
  | ({ kind: "signal"; at: string } & SignalDetails)
  /** A team member's reply (decision 57), as sent, with the meeting it proposed. */
  | { kind: "reply"; at: string; by: LeadActor; subject: string; body: string; meeting: { startsAt: string; minutes: number; timeZone: string } | null }
  /** A call a team member logged, with its optional note. */
  | { kind: "call"; at: string; by: LeadActor; note: string | null }
  /** A team member changed the lead's status, temperature or note (decision 61); `value` is the new one. */
  | { kind: "change"; at: string; by: LeadActor; field: "status" | "temperature" | "note"; value: string | null }
  /** Met in person and added by a team member at the booth or from the inbox (decision 62). */
  | { kind: "met"; at: string; event: string; addedBy: string; note: string | null; linkedinUrl: string | null };

/** Who on the team did something to a lead: their name, and whether it is the person looking (they read "You"). */
export type LeadActor = { name: string; you: boolean };

/** A lead with their address, as an export (vCards) needs it. */
export type LeadWithAddress = {
  id: string;
  name: string;
  /** Null for a person met in person without an e-mail (decision 92), until the team adds one. */
  email: string | null;
  /** The phone number the newest capture that has one was given (decision 92). */
  phone: string | null;
  firstSeenAt: string;
  lastActivityAt: string;
  actions: LeadAction[];
  /** Where they came from (their first attributed action), named as the CSV and the funnel name it (decision 54). */
  event: SourceName;
  /** Whether any of their contacts still follows updates (they may have unsubscribed since). */
  following: boolean;
  linkedinUrl: string | null;
  status: LeadStatus;
  note: string | null;
  /** The founder's first response (a status change, a reply or a logged call), null while they wait (issue 28's response clock). */
  firstResponseAt: string | null;
  /**
   * Since when they wait for the founder: their first action, or when a person met in person was marked as awaiting
   * a follow-up; null for someone only met in person, who waits for nobody (decision 84).
   */
  awaitingSince: string | null;
  temperature: LeadTemperature | null;
  /** Their latest answer to the project's qualifying question, with the question as asked (issue 28 item 4). */
  answer: QualifyingAnswer | null;
  /** What they did, and what the founder sent or logged, newest first. */
  activity: LeadActivityItem[];
};

/** A lead as the inbox shows it: no address for a member whose role may not see it (a viewer), so the page never has it. */
export type LeadView = LeadWithAddress & {
  /** Whether the lead has an e-mail to reply to, also for a role that is not shown it. */
  hasEmail: boolean;
};

type LeadRow = {
  id: string;
  email: string | null;
  name: string;
  first_seen_at: string;
  last_activity_at: string;
  did_intro: boolean;
  did_subscribe: boolean;
  did_signal: boolean;
  source: string;
  status: LeadStatus;
  note: string | null;
  first_response_at: string | null;
  awaiting_since: string | null;
  temperature: LeadTemperature | null;
  question: string | null;
  answer: string | null;
};

/** The last row of a page: its order column's value, its id, and, when sorted hottest first, its temperature's rank. */
type Cursor = { at: string; id: string; rank?: number };

/** `after` in the URL: the last row of the previous page, so the next page starts strictly below it. */
export function encodeLeadCursor(cursor: Cursor): string {
  return Buffer.from([cursor.at, cursor.id, ...(cursor.rank === undefined ? [] : [String(cursor.rank)])].join("|"), "utf8").toString("base64url");
}

function decodeLeadCursor(value: string | null): Cursor | null {
  if (!value) return null;
  const [at, id, rank, ...rest] = Buffer.from(value, "base64url").toString("utf8").split("|");
  if (!at || !id || rest.length || Number.isNaN(Date.parse(at)) || id.length > 64 || !isStorableText(id) || !isStorableText(at)) return null;
  if (rank !== undefined && !/^[0-3]$/.test(rank)) return null;
  return rank === undefined ? { at, id } : { at, id, rank: Number(rank) };
}

/** Hot 0, warm 1, cold 2, unmarked 3: the order of 'Hottest first'. */
const TEMPERATURE_RANKS: Record<LeadTemperature, number> = { hot: 0, warm: 1, cold: 2 };
const UNMARKED_RANK = 3;
const temperatureRank = sql<number>`case ${sql.ref("temperature")} when 'hot' then 0 when 'warm' then 1 when 'cold' then 2 else 3 end`;

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `addresses`: whether the search also matches e-mail addresses (not for a role that may not see them). */
function filteredLeads(db: Kysely<Database>, projectId: string, filters: Omit<LeadFilters, "after">, addresses = true) {
  let query = db
    .selectFrom("leads")
    .select(["id", "email", "name", "first_seen_at", "last_activity_at", "did_intro", "did_subscribe", "did_signal", "source", "status", "note", "first_response_at", "awaiting_since", "temperature", "question", "answer"])
    .where("project_id", "=", projectId);
  if (filters.action === "intro") query = query.where("did_intro", "=", true);
  if (filters.action === "subscription") query = query.where("did_subscribe", "=", true);
  if (filters.action === "signal") query = query.where("did_signal", "=", true);
  if (filters.lead) query = isRecordId(filters.lead) ? query.where("id", "=", filters.lead) : query.where(sql<SqlBool>`1 = 0`);
  if (filters.status) query = query.where("status", "=", filters.status);
  if (filters.temperature) query = query.where("temperature", "=", filters.temperature);
  if (filters.answer) query = query.where("answer", "=", filters.answer);
  if (filters.view === "unanswered") query = query.where("first_response_at", "is", null).where("awaiting_since", "is not", null);
  if (filters.event) query = query.where("source", "=", filters.event);
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    const byName = sql<SqlBool>`lower(${sql.ref("name")}) like ${pattern} escape '\\'`;
    query = query.where((eb) => (addresses ? eb.or([byName, sql<SqlBool>`${sql.ref("email")} like ${pattern} escape '\\'`]) : byName));
  }
  return query;
}

/**
 * Newest activity first, or for the unanswered view the longest waiting first (awaiting since, oldest first); sorted
 * hottest first, each temperature in that order. Ties broken by id so every lead appears exactly once across pages.
 */
function pageAfter<O>(query: SelectQueryBuilder<Database, "leads", O>, cursor: Cursor | null, limit: number, order: LeadOrder) {
  const [column, direction] = orderOf(order.view);
  const hottestFirst = order.sort === "temperature";
  if (cursor) {
    // A row-value comparison, which both databases answer from the (project_id, column, id) indexes.
    const within = (eb: ExpressionBuilder<Database, "leads">) => eb(eb.refTuple(column, "id"), direction === "desc" ? "<" : ">", eb.tuple(cursor.at, cursor.id));
    query = hottestFirst
      ? query.where((eb) => {
          const rank = cursor.rank ?? UNMARKED_RANK;
          return eb.or([eb(temperatureRank, ">", rank), eb.and([eb(temperatureRank, "=", rank), within(eb)])]);
        })
      : query.where(within);
  }
  if (hottestFirst) query = query.orderBy(temperatureRank);
  return query.orderBy(column, direction).orderBy("id", direction).limit(limit);
}

type LeadOrder = Pick<LeadFilters, "view" | "sort">;

/** The column a view orders by, and which way. */
function orderOf(view: LeadFilters["view"]) {
  return view === "unanswered" ? (["awaiting_since", "asc"] as const) : (["last_activity_at", "desc"] as const);
}

/** Where the next page starts: the last row's value of the column the view orders by (and its rank, sorted by it). */
function cursorAfter(row: LeadRow, order: LeadOrder): Cursor {
  // The unanswered view lists only leads that wait, so its column is never null there.
  const cursor: Cursor = { at: row[orderOf(order.view)[0]] ?? "", id: row.id };
  return order.sort === "temperature" ? { ...cursor, rank: row.temperature ? TEMPERATURE_RANKS[row.temperature] : UNMARKED_RANK } : cursor;
}

/** What each lead did, from their contact, its intros and its signals, newest first. */
async function activityOf(db: Kysely<Database>, projectId: string, emails: string[]) {
  const byEmail = new Map<string, { activity: LeadActivityItem[]; following: boolean; linkedinUrl: string | null }>();
  if (emails.length === 0) return byEmail;
  const contacts = await db
    .selectFrom("contacts")
    .select(["id", "email", "intent", "subscribed", "linkedin_url", "created_at"])
    .where("project_id", "=", projectId)
    .where("email", "in", emails)
    .execute();
  const contactIds = contacts.map((contact) => contact.id);
  if (contactIds.length === 0) return byEmail;
  const [intros, signals] = await Promise.all([
    db
      .selectFrom("intros")
      .select(["id", "contact_id", "role_tags", "linkedin_url", "note", "created_at"])
      .where("contact_id", "in", contactIds)
      .execute(),
    db
      .selectFrom("signals")
      .select(["id", "contact_id", "range_label", "range_min", "range_max", "message", "is_public", "message_public", "created_at"])
      .where("contact_id", "in", contactIds)
      .execute(),
  ]);
  const entryOf = new Map<string, { activity: LeadActivityItem[]; following: boolean; linkedinUrl: string | null }>();
  for (const contact of contacts) {
    const entry = { activity: [] as LeadActivityItem[], following: Boolean(contact.subscribed), linkedinUrl: contact.linkedin_url };
    // A contact created by subscribing dates the subscription; a later one has no date of its own.
    if (contact.intent === "Subscriber") entry.activity.push({ kind: "subscription", at: contact.created_at });
    byEmail.set(contact.email, entry);
    entryOf.set(contact.id, entry);
  }
  for (const intro of intros) {
    entryOf.get(intro.contact_id)?.activity.push({ kind: "intro", at: intro.created_at, roleTags: intro.role_tags, linkedinUrl: intro.linkedin_url, note: intro.note });
  }
  for (const signal of signals) {
    entryOf.get(signal.contact_id)?.activity.push({
      kind: "signal",
      at: signal.created_at,
      rangeLabel: signal.range_label,
      rangeMin: Number(signal.range_min),
      rangeMax: signal.range_max === null ? null : Number(signal.range_max),
      message: signal.message,
      isPublic: Boolean(signal.is_public),
      messagePublic: Boolean(signal.message_public),
    });
  }
  for (const entry of byEmail.values()) entry.activity.sort((a, b) => (b.at ?? "").localeCompare(a.at ?? ""));
  return byEmail;
}

function actorOf(author: { id: string | null; name: string | null; email: string | null }, viewerId: string | null): LeadActor {
  return { name: author.name || author.email || "A former member", you: author.id !== null && author.id === viewerId };
}

/** What the team sent or logged for each lead (decision 57), and who changed its triage (decision 61), by lead id. */
async function followUpsOf(db: Kysely<Database>, leadIds: string[], viewerId: string | null): Promise<Map<string, LeadActivityItem[]>> {
  const byLead = new Map<string, LeadActivityItem[]>();
  if (leadIds.length === 0) return byLead;
  const [rows, changes] = await Promise.all([
    db
      .selectFrom("lead_follow_ups")
      .leftJoin("users", "users.id", "lead_follow_ups.author_id")
      .select([
        "lead_follow_ups.lead_id",
        "lead_follow_ups.kind",
        "lead_follow_ups.subject",
        "lead_follow_ups.body",
        "lead_follow_ups.meeting_starts_at",
        "lead_follow_ups.meeting_minutes",
        "lead_follow_ups.meeting_time_zone",
        "lead_follow_ups.created_at",
        "users.id as author_id",
        "users.name as author_name",
        "users.email as author_email",
      ])
      .where("lead_follow_ups.lead_id", "in", leadIds)
      .execute(),
    db
      .selectFrom("lead_events")
      .leftJoin("users", "users.id", "lead_events.actor_id")
      .select(["lead_events.lead_id", "lead_events.kind", "lead_events.value", "lead_events.created_at", "users.id as author_id", "users.name as author_name", "users.email as author_email"])
      .where("lead_events.lead_id", "in", leadIds)
      .orderBy("lead_events.created_at")
      .orderBy("lead_events.kind")
      .orderBy("lead_events.id")
      .execute(),
  ]);
  const add = (leadId: string, item: LeadActivityItem) => byLead.set(leadId, [...(byLead.get(leadId) ?? []), item]);
  for (const row of changes) {
    const by = actorOf({ id: row.author_id, name: row.author_name, email: row.author_email }, viewerId);
    add(row.lead_id, { kind: "change", at: row.created_at, by, field: row.kind, value: row.value });
  }
  for (const row of rows) {
    const by = actorOf({ id: row.author_id, name: row.author_name, email: row.author_email }, viewerId);
    const item: LeadActivityItem =
      row.kind === "call"
        ? { kind: "call", at: row.created_at, by, note: row.body }
        : {
            kind: "reply",
            at: row.created_at,
            by,
            subject: row.subject ?? "",
            body: row.body ?? "",
            meeting:
              row.meeting_starts_at && row.meeting_minutes !== null
                ? { startsAt: row.meeting_starts_at, minutes: Number(row.meeting_minutes), timeZone: row.meeting_time_zone ?? "UTC" }
                : null,
          };
    add(row.lead_id, item);
  }
  return byLead;
}

async function toLeadViews(
  db: Kysely<Database>,
  projectId: string,
  rows: LeadRow[],
  codeNames: ReadonlyMap<string, string>,
  viewerId: string | null,
): Promise<LeadWithAddress[]> {
  const ids = rows.map((row) => row.id);
  const [activity, followUps, captures] = await Promise.all([
    activityOf(db, projectId, rows.flatMap((row) => (row.email === null ? [] : [row.email]))),
    followUpsOf(db, ids, viewerId),
    capturesOf(db, projectId, ids, codeNames),
  ]);
  return rows.map((row) => {
    const done = row.email === null ? undefined : activity.get(row.email);
    const met = captures.get(row.id) ?? [];
    const sent = [
      ...(followUps.get(row.id) ?? []),
      ...met.map((capture): LeadActivityItem => ({ kind: "met", at: capture.at, event: capture.event, addedBy: capture.addedBy, note: capture.note, linkedinUrl: capture.linkedinUrl })),
    ];
    const items = sent.length ? [...(done?.activity ?? []), ...sent].sort((a, b) => (b.at ?? "").localeCompare(a.at ?? "")) : (done?.activity ?? []);
    if (row.did_subscribe && !items.some((item) => item.kind === "subscription")) items.unshift({ kind: "subscription", at: null });
    const actions: LeadAction[] = [];
    if (row.did_intro) actions.push("intro");
    if (row.did_subscribe) actions.push("subscription");
    if (row.did_signal) actions.push("signal");
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      phone: met.find((capture) => capture.phone)?.phone ?? null,
      firstSeenAt: row.first_seen_at,
      lastActivityAt: row.last_activity_at,
      actions,
      event: nameSource(row.source, codeNames),
      following: done?.following ?? false,
      linkedinUrl: done?.linkedinUrl ?? met.find((capture) => capture.linkedinUrl)?.linkedinUrl ?? null,
      status: row.status,
      note: row.note,
      firstResponseAt: row.first_response_at,
      awaitingSince: row.awaiting_since,
      temperature: row.temperature,
      answer: row.question !== null && row.answer !== null ? { question: row.question, answer: row.answer } : null,
      activity: items,
    };
  });
}

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
  const [leads, total, acted, metInPerson, newSinceLastVisit, unanswered, heldForReview, question] = await Promise.all([
    toLeadViews(db, project.id, page, codeNames, ownerId).then((views): LeadView[] =>
      views.map((view) => ({ ...view, hasEmail: view.email !== null, ...(addresses ? {} : { email: null, phone: null }) })),
    ),
    countLeads({}),
    countLeads({ acted: true }),
    countLeads({ met: true }),
    previousVisitAt ? countLeads({ since: previousVisitAt }) : null,
    countLeads({ waiting: true }),
    countHeldSubmissions(db, project.id),
    readQualifyingQuestion(db, project.id),
  ]);
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
 * looked' at the same moment (issue 27). While a sitting at the inbox lasts, from the look before it (null: every
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

/** Sets a lead's status and private note. A lead of another project is 'not found', and nothing changes. */
export async function updateLeadTriage(db: Kysely<Database>, ownerId: string, projectId: string, input: LeadTriageInput, now = new Date()) {
  await updateTeamLead(db, ownerId, projectId, input.leadId, (eb) => ({
    status: input.status,
    note: input.note,
    triaged_at: now.toISOString(),
    // A status change is the founder's response; a note alone is not (the person hears nothing of it).
    first_response_at: eb
      .case()
      .when(eb.and([eb("first_response_at", "is", null), eb("status", "<>", input.status)]))
      .then(now.toISOString())
      .else(eb.ref("first_response_at"))
      .end(),
  }), now);
}

/**
 * Marks a person only met in person as awaiting the founder's follow-up: their response clock starts now (decision
 * 84). A lead already waiting or answered keeps its clock; a lead of another project is 'not found'.
 */
export async function markAwaitingFollowUp(db: Kysely<Database>, userId: string, projectId: string, leadId: string, now = new Date()) {
  const project = await requireProjectRole(db, userId, projectId, "triage");
  if (!isRecordId(leadId)) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE);
  const result = await db
    .updateTable("leads")
    .set({ awaiting_since: now.toISOString(), first_response_at: null })
    .where("id", "=", leadId)
    .where("project_id", "=", project.id)
    .where("awaiting_since", "is", null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    const lead = await db.selectFrom("leads").select("id").where("id", "=", leadId).where("project_id", "=", project.id).executeTakeFirst();
    if (!lead) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE);
  }
}

/** Marks a lead hot, warm or cold, or clears it (`none`). Not a response: the person hears nothing of it. */
export async function setLeadTemperature(db: Kysely<Database>, userId: string, projectId: string, input: LeadTemperatureInput, now = new Date()) {
  await updateTeamLead(db, userId, projectId, input.leadId, () => ({ temperature: input.temperature === "none" ? null : input.temperature }), now);
}

const TRIAGE_FIELDS = ["status", "temperature", "note"] as const;

/**
 * One lead of the project changed by a member whose role may triage; a lead of another project is 'not found', and
 * nothing changes. Each of status, temperature and note that the change altered is kept in the lead's history with
 * who did it (decision 61), in the same transaction.
 */
async function updateTeamLead(
  db: Kysely<Database>,
  userId: string,
  projectId: string,
  leadId: string,
  changes: (eb: ExpressionBuilder<Database, "leads">) => UpdateObject<Database, "leads">,
  now: Date,
) {
  const project = await requireProjectRole(db, userId, projectId, "triage");
  if (!isRecordId(leadId)) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE, { leadId: LEAD_NOT_FOUND_MESSAGE });
  await db.transaction().execute(async (trx) => {
    const triageOf = (from: Kysely<Database>) =>
      from.selectFrom("leads").select(TRIAGE_FIELDS).where("id", "=", leadId).where("project_id", "=", project.id).executeTakeFirst();
    const before = await triageOf(trx);
    if (!before) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE, { leadId: LEAD_NOT_FOUND_MESSAGE });
    await trx.updateTable("leads").set(changes).where("id", "=", leadId).execute();
    const after = (await triageOf(trx))!;
    const changed = TRIAGE_FIELDS.filter((field) => (before[field] ?? null) !== (after[field] ?? null));
    if (changed.length === 0) return;
    await trx
      .insertInto("lead_events")
      .values(changed.map((field) => ({ id: crypto.randomUUID(), project_id: project.id, lead_id: leadId, actor_id: userId, kind: field, value: after[field] ?? null, created_at: now.toISOString() })))
      .execute();
  });
}

/** One lead with what they did, for its vCard (a role that may export may see the address). */
export async function getLead(db: Kysely<Database>, ownerId: string, projectId: string, leadId: string) {
  const project = await requireProjectRole(db, ownerId, projectId, "export");
  if (!isRecordId(leadId)) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE);
  const row = (await filteredLeads(db, project.id, { action: null, status: null, event: null, q: null })
    .where("id", "=", leadId)
    .executeTakeFirst()) as LeadRow | undefined;
  if (!row) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE);
  const [lead] = await toLeadViews(db, project.id, [row], await readCodeNames(db, project.id), ownerId);
  return { project, lead: lead! };
}

const EXPORT_PAGE_SIZE = 500;

/** Every lead matching the filters, in keyset pages (memory stays flat), for the vCards download (its caller checks `export`). */
export async function* iterateLeads(db: Kysely<Database>, projectId: string, filters: Omit<LeadFilters, "after">): AsyncGenerator<LeadWithAddress[]> {
  let cursor: Cursor | null = null;
  const codeNames = await readCodeNames(db, projectId);
  for (;;) {
    const rows = (await pageAfter(filteredLeads(db, projectId, filters), cursor, EXPORT_PAGE_SIZE, filters).execute()) as LeadRow[];
    if (rows.length === 0) return;
    yield await toLeadViews(db, projectId, rows, codeNames, null);
    const last = rows[rows.length - 1]!;
    cursor = cursorAfter(last, filters);
    if (rows.length < EXPORT_PAGE_SIZE) return;
  }
}
