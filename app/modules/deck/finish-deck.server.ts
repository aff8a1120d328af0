import type { Kysely } from "kysely";
import type { Database, DeckRefusalReason } from "~/db/schema";
import { bumpContentVersion } from "~/modules/projects/projects.server";
import type { ObjectStore } from "~/modules/storage/object-store.server";
import { deckFolder } from "./deck-keys";

/**
 * The last page is stored: the deck becomes the one the project's pitch page shows, in one transaction with the
 * page's content version (so every cached copy of the page is renewed); the deck it replaces is marked replaced
 * and its files deleted. False when the deck was no longer this renderer's to finish (replaced or removed meanwhile).
 */
export async function publishDeck(db: Kysely<Database>, store: ObjectStore, deckId: string, owner: string, now: Date): Promise<boolean> {
  const replaced = await db.transaction().execute(async (trx) => {
    const finished = await trx
      .updateTable("decks")
      .set({ status: "ready", finished_at: now.toISOString(), claimed_by: null, claimed_until: null })
      .where("id", "=", deckId)
      .where("claimed_by", "=", owner)
      .where("status", "=", "rendering")
      .returning(["project_id"])
      .executeTakeFirst();
    if (!finished) return null;
    return { previous: await showDeck(trx, finished.project_id, deckId) };
  });
  if (!replaced) return false;
  if (replaced.previous) await deleteDeckFiles(store, replaced.previous);
  return true;
}

/**
 * Makes a ready deck the one the project's pitch page shows, with the page's content version (so every cached copy
 * is renewed), inside the caller's transaction; the deck it replaces is marked replaced. Answers that deck's id, whose
 * files the caller deletes once the transaction has committed.
 */
export async function showDeck(trx: Kysely<Database>, projectId: string, deckId: string): Promise<string | null> {
  const project = await trx.selectFrom("projects").select("deck_id").where("id", "=", projectId).executeTakeFirstOrThrow();
  await trx.updateTable("projects").set({ deck_id: deckId }).where("id", "=", projectId).execute();
  await bumpContentVersion(trx, projectId);
  if (project.deck_id) await trx.updateTable("decks").set({ status: "replaced" }).where("id", "=", project.deck_id).execute();
  return project.deck_id;
}

/** The file was not taken as a deck: the reason is kept for the founder to read, its files are deleted. */
export async function refuseDeck(db: Kysely<Database>, store: ObjectStore, deckId: string, reason: DeckRefusalReason, message: string): Promise<void> {
  await db
    .updateTable("decks")
    .set({ status: "refused", refusal_reason: reason, refusal_message: message, finished_at: new Date().toISOString(), claimed_by: null, claimed_until: null })
    .where("id", "=", deckId)
    .where("status", "=", "rendering")
    .execute();
  await deleteDeckFiles(store, deckId);
}

export async function deleteDeckFiles(store: ObjectStore, deckId: string): Promise<void> {
  await store.delete(await store.list(deckFolder(deckId)));
}
