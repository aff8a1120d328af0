import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";

/** The deck on the project's page now and its page count: `deckId` null without one; null for no such project. */
export async function currentDeck(db: Kysely<Database>, projectId: string): Promise<{ deckId: string | null; pages: number } | null> {
  const row = await db
    .selectFrom("projects")
    .leftJoin("decks", "decks.id", "projects.deck_id")
    .select(["projects.deck_id", "decks.page_count"])
    .where("projects.id", "=", projectId)
    .executeTakeFirst();
  return row ? { deckId: row.deck_id, pages: row.page_count ?? 0 } : null;
}
