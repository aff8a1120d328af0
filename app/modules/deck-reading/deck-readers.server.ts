import { currentDeck } from "~/modules/deck/current-deck.server";
import { sql, type Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DIRECT, qrCodeIdOfSource } from "~/modules/analytics/sources.server";
import { isRecordId } from "~/modules/http/id-shape";

/** One page of the deck as its readers read it. */
export type DeckPageReading = {
  /** From 1. */
  page: number;
  /** Readers with any counted time on this page. */
  readers: number;
  /** Over the readers who reached it, of each one's time on it across their views; 0 when none did. */
  medianMs: number;
  totalMs: number;
  /** Readers who reached this page per reader with any time, from 0 to 1: the drop-off. */
  share: number;
};

/** The reading of the deck on the project's page now (decision 99), for the whole project or one source. */
export type DeckReaders = {
  deckId: string;
  pageCount: number;
  /** The source read ('qr:{code id}' or 'direct'), or null for the whole project. */
  source: string | null;
  /** Distinct readers (a viewer, or a view without one) with any counted time. */
  readers: number;
  pages: DeckPageReading[];
  /** Views by the team and by bots: shown apart, never in the figures above. */
  apart: { teamViews: number; botViews: number };
};

/** The source a `?audience=` choice names, when it is one a view can have: a code's or the plain link's; else the whole project. */
export function deckSourceOf(choice: string | null | undefined): string | null {
  if (choice === DIRECT) return DIRECT;
  const code = choice ? qrCodeIdOfSource(choice) : null;
  return code && isRecordId(code) ? choice! : null;
}

/**
 * Per page of the deck on the project's page now: how many readers reached it, their median and total time, and
 * the drop-off; the team's and bots' views counted apart. For anyone on the team who may view analytics; null when
 * the project shows no deck.
 */
export async function loadDeckReaders(db: Kysely<Database>, userId: string, projectId: string, source: string | null = null): Promise<DeckReaders | null> {
  await requireProjectRole(db, userId, projectId, "view");
  const deck = await currentDeck(db, projectId);
  if (!deck?.deckId) return null;
  const pageCount = deck.pages;

  // A reader is a viewer; a view without one is a reader of its own.
  const reader = sql<string>`case when deck_views.viewer_fingerprint is null then ${sql.lit("view:")} || deck_views.id else ${sql.lit("viewer:")} || deck_views.viewer_fingerprint end`;
  const [perReaderPage, apartRows] = await Promise.all([
    db
      .selectFrom("deck_view_pages")
      .innerJoin("deck_views", "deck_views.id", "deck_view_pages.view_id")
      .select((eb) => [reader.as("reader"), "deck_view_pages.page_number", eb.fn.sum<number>("deck_view_pages.ms").as("ms")])
      .where("deck_views.deck_id", "=", deck.deckId)
      .where("deck_views.audience", "=", "reader")
      .$if(source !== null, (qb) => qb.where("deck_views.source", "=", source!))
      .groupBy([reader, "deck_view_pages.page_number"])
      .execute(),
    db
      .selectFrom("deck_views")
      .select((eb) => ["audience", eb.fn.countAll<number>().as("views")])
      .where("deck_id", "=", deck.deckId)
      .where("audience", "in", ["team", "bot"])
      .$if(source !== null, (qb) => qb.where("source", "=", source!))
      .groupBy("audience")
      .execute(),
  ]);

  const timesPerPage = Array.from({ length: pageCount }, () => [] as number[]);
  const readers = new Set<string>();
  for (const row of perReaderPage) {
    const ms = Number(row.ms);
    if (ms <= 0 || row.page_number < 1 || row.page_number > pageCount) continue;
    timesPerPage[row.page_number - 1]!.push(ms);
    readers.add(row.reader);
  }
  const views = (audience: string) => Number(apartRows.find((row) => row.audience === audience)?.views ?? 0);
  return {
    deckId: deck.deckId,
    pageCount,
    source,
    readers: readers.size,
    pages: timesPerPage.map((times, index) => ({
      page: index + 1,
      readers: times.length,
      medianMs: median(times),
      totalMs: times.reduce((sum, ms) => sum + ms, 0),
      share: readers.size ? times.length / readers.size : 0,
    })),
    apart: { teamViews: views("team"), botViews: views("bot") },
  };
}

/** The middle value, or the mean of the two middle ones; 0 for none. */
function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
