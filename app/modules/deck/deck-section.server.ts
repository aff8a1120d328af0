import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole, type ProjectAccess } from "~/modules/access/project-access.server";
import { readPitchDeck, type PitchDeckPage } from "./pitch-deck.server";

/** The deck the pitch page shows. */
export type LiveDeck = { id: string; fileName: string; pageCount: number; finishedAt: string; download: boolean };
/** An upload being drawn: the page count is known once the PDF is opened. */
export type PendingDeck = { id: string; fileName: string; pagesDone: number; pageCount: number | null; uploadedAt: string };
/** The newest upload that was not taken, when it came after the live deck. */
export type RefusedDeck = { id: string; fileName: string; message: string; at: string };

export type DeckSection = {
  project: ProjectAccess;
  live: LiveDeck | null;
  /** The live deck's first page, as the pitch page shows it. */
  firstPage: PitchDeckPage | null;
  pending: PendingDeck | null;
  refused: RefusedDeck | null;
};

/** What the project's Deck section shows any member: the live deck, one being drawn, and the last refusal. */
export async function loadDeckSection(db: Kysely<Database>, userId: string, projectId: string): Promise<DeckSection> {
  const project = await requireProjectRole(db, userId, projectId, "view");
  const settings = await db.selectFrom("projects").select(["deck_id", "deck_download"]).where("id", "=", projectId).executeTakeFirstOrThrow();
  const decks = await db
    .selectFrom("decks")
    .select(["id", "status", "file_name", "page_count", "pages_done", "refusal_message", "created_at", "finished_at"])
    .where("project_id", "=", projectId)
    .where((eb) => eb.or([eb("status", "in", ["rendering", "refused"]), eb("id", "=", settings.deck_id ?? "")]))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(20)
    .execute();
  const current = decks.find((deck) => deck.id === settings.deck_id);
  const rendering = decks.find((deck) => deck.status === "rendering");
  const refused = decks.find((deck) => deck.status === "refused");
  const live: LiveDeck | null = current
    ? { id: current.id, fileName: current.file_name, pageCount: current.page_count ?? 0, finishedAt: current.finished_at ?? current.created_at, download: settings.deck_download }
    : null;
  const firstPage = current ? ((await readPitchDeck(db, { deck_id: current.id, deck_download: false }))?.pages[0] ?? null) : null;
  return {
    project,
    live,
    firstPage,
    pending: rendering
      ? { id: rendering.id, fileName: rendering.file_name, pagesDone: rendering.pages_done, pageCount: rendering.page_count, uploadedAt: rendering.created_at }
      : null,
    refused:
      refused && (!current || refused.created_at > current.created_at) && (!rendering || refused.created_at > rendering.created_at)
        ? { id: refused.id, fileName: refused.file_name, message: refused.refusal_message ?? "", at: refused.finished_at ?? refused.created_at }
        : null,
  };
}
