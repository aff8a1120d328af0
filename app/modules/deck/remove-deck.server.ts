import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DomainError } from "~/modules/errors.server";
import { bumpContentVersion } from "~/modules/projects/projects.server";
import type { ObjectStore } from "~/modules/storage/object-store.server";
import { deleteDeckFiles } from "./finish-deck.server";

export const NO_DECK_MESSAGE = "This project has no uploaded deck.";

/**
 * Takes the uploaded deck off the pitch page (its deck URL, if any, shows again) and stops a deck still being
 * drawn; their files are deleted. Nothing to remove is a 404 with NO_DECK_MESSAGE.
 */
export async function removeDeck(db: Kysely<Database>, store: ObjectStore, userId: string, projectId: string): Promise<void> {
  await requireProjectRole(db, userId, projectId, "edit");
  const removed = await db.transaction().execute(async (trx) => {
    const project = await trx.selectFrom("projects").select("deck_id").where("id", "=", projectId).executeTakeFirstOrThrow();
    const gone = await trx
      .updateTable("decks")
      .set({ status: "removed", claimed_by: null, claimed_until: null })
      .where("project_id", "=", projectId)
      .where((eb) => eb.or([eb("status", "=", "rendering"), eb("id", "=", project.deck_id ?? "")]))
      .returning("id")
      .execute();
    if (project.deck_id) {
      await trx.updateTable("projects").set({ deck_id: null }).where("id", "=", projectId).execute();
      await bumpContentVersion(trx, projectId);
    }
    return gone.map((deck) => deck.id);
  });
  if (removed.length === 0) throw new DomainError("not_found", NO_DECK_MESSAGE);
  for (const deckId of removed) await deleteDeckFiles(store, deckId);
}
