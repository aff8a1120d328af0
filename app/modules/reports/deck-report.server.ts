import { currentDeck } from "~/modules/deck/current-deck.server";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { readingOfLeads } from "~/modules/deck/lead-reading.server";
import { readingTimeText } from "~/modules/deck-reading/reading-text";
import { pluralWord } from "~/modules/formats/counts";
import type { DueReport } from "./report-days";

/** How the deck on the page now was read in a report's period: people who read it, those who reached its last page, and their median time. */
export type DeckPeriodFigures = { readers: number; toTheEnd: number; medianMs: number };

/**
 * The period's readers of the deck on the project's page now (decision 99): views counted as a reader's
 * (never the team's or a bot's) that opened in the report's window, with any time. A person is their lead when
 * their viewer sent a form, else their viewer; a browser without a cookie is one reader per view (an address is
 * shared by a whole venue's wifi). Null when the page shows no deck.
 */
export async function readDeckPeriod(db: Kysely<Database>, projectId: string, report: Pick<DueReport, "from" | "to">): Promise<DeckPeriodFigures | null> {
  const deck = await currentDeck(db, projectId);
  if (!deck?.deckId) return null;
  const views = await db
    .selectFrom("deck_views")
    .leftJoin("deck_view_pages", (join) => join.onRef("deck_view_pages.view_id", "=", "deck_views.id").on("deck_view_pages.ms", ">", 0))
    .select((eb) => ["deck_views.id", "deck_views.lead_id", "deck_views.viewer_fingerprint", "deck_views.ms", eb.fn.max("deck_view_pages.page_number").as("last_page")])
    .where("deck_views.deck_id", "=", deck.deckId)
    .where("deck_views.audience", "=", "reader")
    .where("deck_views.ms", ">", 0)
    .where("deck_views.started_at", ">=", report.from.toISOString())
    .where("deck_views.started_at", "<", report.to.toISOString())
    .groupBy(["deck_views.id", "deck_views.lead_id", "deck_views.viewer_fingerprint", "deck_views.ms"])
    .execute();
  const lastPage = deck.pages;
  const people = new Map<string, { ms: number; toTheEnd: boolean }>();
  for (const view of views) {
    const key = view.lead_id ? `lead:${view.lead_id}` : view.viewer_fingerprint ? `viewer:${view.viewer_fingerprint}` : `view:${view.id}`;
    const person = people.get(key) ?? { ms: 0, toTheEnd: false };
    person.ms += Number(view.ms);
    person.toTheEnd ||= lastPage > 0 && Number(view.last_page ?? 0) >= lastPage;
    people.set(key, person);
  }
  const times = [...people.values()].map((person) => person.ms).sort((a, b) => a - b);
  return { readers: people.size, toTheEnd: [...people.values()].filter((person) => person.toTheEnd).length, medianMs: median(times) };
}

function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/** "Deck: 12 readers, 4 read to the end, median 2 min 10 s", or that nobody read it in the period. */
export function deckPeriodText(figures: DeckPeriodFigures): string {
  if (figures.readers === 0) return "Deck: nobody read it this period.";
  return `Deck: ${figures.readers.toLocaleString("en-US")} ${pluralWord(figures.readers, "reader")}, ${figures.toTheEnd.toLocaleString("en-US")} read to the end, median ${readingTimeText(figures.medianMs)}`;
}

/**
 * Each of these leads' reading of the deck on the page now, over all their views, as the report names it beside
 * them: "read 9 of 14 pages, 3 min 12 s". Leads who read none of it have no entry.
 */
export async function readingLinesOf(db: Kysely<Database>, projectId: string, leadIds: readonly string[]): Promise<Map<string, string>> {
  const readings = await readingOfLeads(db, projectId, [...new Set(leadIds)]);
  return new Map(
    [...readings].map(([leadId, reading]) => [leadId, `read ${reading.pagesRead} of ${reading.pageCount} ${pluralWord(reading.pageCount, "page")}, ${readingTimeText(reading.ms)}`]),
  );
}
