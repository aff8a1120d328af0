import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool } from "kysely";
import type { Database } from "~/db/schema";
import type { LeadTemperature } from "~/modules/formats/lead-triage";
import { isStorableText } from "~/modules/forms/storable-text";
import { isRecordId } from "~/modules/http/id-shape";
import type { LeadFilters } from "~/modules/leads/lead-forms";
import type { LeadRow } from "./lead-views.server";

/**
 * The last row of a page: its order column's value, its id, and, when sorted hottest first, its temperature's rank
 * (sorted by reading time, its reading time in milliseconds).
 */
export type Cursor = { at: string; id: string; rank?: number };

/** `after` in the URL: the last row of the previous page, so the next page starts strictly below it. */
export function encodeLeadCursor(cursor: Cursor): string {
  return Buffer.from([cursor.at, cursor.id, ...(cursor.rank === undefined ? [] : [String(cursor.rank)])].join("|"), "utf8").toString("base64url");
}

export function decodeLeadCursor(value: string | null): Cursor | null {
  if (!value) return null;
  const [at, id, rank, ...rest] = Buffer.from(value, "base64url").toString("utf8").split("|");
  if (!at || !id || rest.length || Number.isNaN(Date.parse(at)) || id.length > 64 || !isStorableText(id) || !isStorableText(at)) return null;
  if (rank !== undefined && !/^\d{1,15}$/.test(rank)) return null;
  return rank === undefined ? { at, id } : { at, id, rank: Number(rank) };
}

/** Hot 0, warm 1, cold 2, unmarked 3: the order of 'Hottest first'. */
const TEMPERATURE_RANKS: Record<LeadTemperature, number> = { hot: 0, warm: 1, cold: 2 };
const UNMARKED_RANK = 3;
const temperatureRank = sql<number>`case ${sql.ref("temperature")} when 'hot' then 0 when 'warm' then 1 when 'cold' then 2 else 3 end`;

/**
 * The lead's reading time of the deck on the project's page now, in milliseconds (0 without any): the readers' views
 * only, as `readingOfLeads` counts them.
 */
const readingMs = sql<number>`coalesce((select sum(deck_view_pages.ms) from deck_view_pages inner join deck_views on deck_views.id = deck_view_pages.view_id where deck_views.lead_id = leads.id and deck_views.audience = 'reader' and deck_views.deck_id = (select projects.deck_id from projects where projects.id = leads.project_id)), 0)`;

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `addresses`: whether the search also matches e-mail addresses (not for a role that may not see them). */
export function filteredLeads(db: Kysely<Database>, projectId: string, filters: Omit<LeadFilters, "after">, addresses = true) {
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
  if (filters.read === "deck") query = query.where(readingMs, ">", 0);
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    const byName = sql<SqlBool>`lower(${sql.ref("name")}) like ${pattern} escape '\\'`;
    query = query.where((eb) => (addresses ? eb.or([byName, sql<SqlBool>`${sql.ref("email")} like ${pattern} escape '\\'`]) : byName));
  }
  return query;
}

/**
 * Newest activity first, or for the unanswered view the longest waiting first (awaiting since, oldest first); sorted
 * hottest first, each temperature in that order; sorted by reading time, the most first, each time in that order.
 * Ties broken by id so every lead appears exactly once across pages.
 */
export function pageAfter<O>(query: SelectQueryBuilder<Database, "leads", O>, cursor: Cursor | null, limit: number, order: LeadOrder) {
  const [column, direction] = orderOf(order.view);
  // The sort's rank before the view's own order: the temperature's (lowest first) or the reading time (most first).
  const ranked = order.sort === "temperature" ? ({ rank: temperatureRank, after: ">", fallback: UNMARKED_RANK } as const) : order.sort === "reading" ? ({ rank: readingMs, after: "<", fallback: 0 } as const) : null;
  if (cursor) {
    // A row-value comparison, which both databases answer from the (project_id, column, id) indexes.
    const within = (eb: ExpressionBuilder<Database, "leads">) => eb(eb.refTuple(column, "id"), direction === "desc" ? "<" : ">", eb.tuple(cursor.at, cursor.id));
    query = ranked
      ? query.where((eb) => {
          const rank = cursor.rank ?? ranked.fallback;
          return eb.or([eb(ranked.rank, ranked.after, rank), eb.and([eb(ranked.rank, "=", rank), within(eb)])]);
        })
      : query.where(within);
  }
  if (ranked) query = query.orderBy(ranked.rank, ranked.after === ">" ? "asc" : "desc");
  const withRank = order.sort === "reading" ? (query.select(readingMs.as("reading_ms")) as unknown as typeof query) : query;
  return withRank.orderBy(column, direction).orderBy("id", direction).limit(limit);
}

export type LeadOrder = Pick<LeadFilters, "view" | "sort">;

/** The column a view orders by, and which way. */
function orderOf(view: LeadFilters["view"]) {
  return view === "unanswered" ? (["awaiting_since", "asc"] as const) : (["last_activity_at", "desc"] as const);
}

/** Where the next page starts: the last row's value of the column the view orders by (and its rank, sorted by it). */
export function cursorAfter(row: LeadRow, order: LeadOrder): Cursor {
  // The unanswered view lists only leads that wait, so its column is never null there.
  const cursor: Cursor = { at: row[orderOf(order.view)[0]] ?? "", id: row.id };
  if (order.sort === "reading") return { ...cursor, rank: Number(row.reading_ms ?? 0) };
  return order.sort === "temperature" ? { ...cursor, rank: row.temperature ? TEMPERATURE_RANKS[row.temperature] : UNMARKED_RANK } : cursor;
}
