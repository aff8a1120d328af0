import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { LeadReading } from "~/modules/deck-reading/reading-text";
import { currentDeck } from "./current-deck.server";

/**
 * The reading of the deck on the project's page now by each of these leads: only leads with any reading time have
 * an entry. Reading belongs to a lead through their viewer (`lead_viewers`); the team's views never do.
 */
export async function readingOfLeads(db: Kysely<Database>, projectId: string, leadIds: readonly string[]): Promise<Map<string, LeadReading>> {
  const readings = new Map<string, LeadReading>();
  if (leadIds.length === 0) return readings;
  const deck = await currentDeck(db, projectId);
  if (!deck?.deckId) return readings;
  const pageCount = deck.pages;
  const rows = await db
    .selectFrom("deck_view_pages")
    .innerJoin("deck_views", "deck_views.id", "deck_view_pages.view_id")
    .select((eb) => ["deck_views.lead_id", "deck_view_pages.page_number", eb.fn.sum<number>("deck_view_pages.ms").as("ms")])
    .where("deck_views.deck_id", "=", deck.deckId)
    .where("deck_views.audience", "=", "reader")
    .where("deck_views.lead_id", "in", leadIds)
    .groupBy(["deck_views.lead_id", "deck_view_pages.page_number"])
    .execute();
  for (const row of rows) {
    if (!row.lead_id) continue;
    const reading = readings.get(row.lead_id) ?? { pageCount, pagesRead: 0, ms: 0, perPage: Array<number>(pageCount).fill(0), longestPage: null };
    const ms = Number(row.ms);
    if (ms <= 0 || row.page_number > pageCount) continue;
    reading.perPage[row.page_number - 1] = ms;
    reading.ms += ms;
    reading.pagesRead += 1;
    readings.set(row.lead_id, reading);
  }
  for (const reading of readings.values()) {
    const longest = Math.max(...reading.perPage);
    reading.longestPage = longest > 0 ? reading.perPage.indexOf(longest) + 1 : null;
  }
  return readings;
}
