import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { deckPageFile } from "./deck-keys";
import { DECK_FALLBACK_WIDTH, DECK_PAGE_WIDTHS } from "./deck-rules";

/** One page as the reader shows it: its images' addresses, its shape (so nothing shifts) and its text. */
export type PitchDeckPage = { number: number; width: number; height: number; text: string; srcset: string; fallback: string };

/** The uploaded deck on a pitch page; `download` is the PDF's address when the founder lets visitors take it. */
export type PitchDeck = { id: string; pages: PitchDeckPage[]; download: string | null };

/** Where a deck's files are served: `/deck/{deckId}/{file}` (see `deck-files.server.ts`). */
export const deckFileUrl = (deckId: string, file: string) => `/deck/${deckId}/${file}`;

/** The deck a project's pitch page shows, or null when none is uploaded (its deck URL shows instead). */
export async function readPitchDeck(db: Kysely<Database>, project: { deck_id: string | null; deck_download: boolean }): Promise<PitchDeck | null> {
  if (!project.deck_id) return null;
  const deckId = project.deck_id;
  const pages = await db
    .selectFrom("deck_pages")
    .select(["page_number", "width", "height", "text"])
    .where("deck_id", "=", deckId)
    .orderBy("page_number")
    .execute();
  if (pages.length === 0) return null;
  return {
    id: deckId,
    download: project.deck_download ? deckFileUrl(deckId, "source.pdf") : null,
    pages: pages.map((page) => ({
      number: page.page_number,
      width: page.width,
      height: page.height,
      text: page.text,
      srcset: DECK_PAGE_WIDTHS.map((width) => `${deckFileUrl(deckId, deckPageFile(page.page_number, width, "webp"))} ${Math.min(width, page.width)}w`).join(", "),
      fallback: deckFileUrl(deckId, deckPageFile(page.page_number, DECK_FALLBACK_WIDTH, "jpg")),
    })),
  };
}
