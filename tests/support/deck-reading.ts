import type { Kysely } from "kysely";
import type { Database, DeckAudience } from "~/db/schema";
import { showDeck } from "~/modules/deck/finish-deck.server";
import type { BeatSender } from "~/modules/deck-reading/record-beats.server";
import type { DeckBeat, ReadingSegment } from "~/modules/deck-reading/reading-rules";

/** A deck of `pages` pages shown on the project's page, as the renderer leaves one (no files: reading needs none). */
export async function createShownDeck(db: Kysely<Database>, project: { id: string; ownerId: string }, pages: number): Promise<string> {
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto("decks")
    .values({ id, project_id: project.id, status: "ready", file_name: "Deck.pdf", file_bytes: 1000, page_count: pages, pages_done: pages, uploaded_by: project.ownerId, created_at: at, finished_at: at })
    .execute();
  await db
    .insertInto("deck_pages")
    .values(Array.from({ length: pages }, (_, index) => ({ deck_id: id, page_number: index + 1, width: 1600, height: 900, text: `Page ${index + 1}` })))
    .execute();
  await db.transaction().execute((trx) => showDeck(trx, project.id, id));
  return id;
}

/** A sender as the beats endpoint makes one: a viewer (or none) counted as `audience`. */
export function sender(viewerFingerprint: string | null, audience: DeckAudience = "reader"): BeatSender {
  return { viewerFingerprint, addressHash: () => (viewerFingerprint ? null : "address-hash"), audience: async () => audience };
}

export const newViewId = () => crypto.randomUUID().replaceAll("-", "");

/**
 * A view's beats as a reader's phone makes them from a list of `[page, seconds]` dwells, one after the other from
 * the view's clock at 0: one beat per dwell, after the opening beat (seq 0, empty).
 */
export function beatsOf(where: { project: string; deck: string; view?: string; qr?: string | null }, dwells: readonly (readonly [page: number, seconds: number])[]): DeckBeat[] {
  const view = where.view ?? newViewId();
  const base = { project: where.project, deck: where.deck, view, qr: where.qr ?? null };
  const beats: DeckBeat[] = [{ ...base, seq: 0, age: 0, segments: [] }];
  let clock = 0;
  for (const [page, seconds] of dwells) {
    const segment: ReadingSegment = [page, clock, clock + seconds * 1000];
    clock += seconds * 1000;
    beats.push({ ...base, seq: beats.length, age: clock, segments: [segment] });
  }
  return beats;
}
