import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DomainError } from "~/modules/errors.server";
import type { ObjectStore } from "~/modules/storage/object-store.server";
import { DECK_SOURCE_TYPE, deckSourceKey } from "./deck-keys";
import { deleteDeckFiles } from "./finish-deck.server";
import { DECK_FILE_MISSING_MESSAGE, DECK_MAX_BYTES, deckRefusalMessage, looksLikePdf } from "./deck-rules";

/**
 * A founder's PDF, taken to be drawn in the background (`DeckRenderer`): refused at once, with nothing changed,
 * when it is empty, over 50 MB or not a PDF by its content; otherwise stored and queued. The pitch page keeps its
 * deck until this one is ready; a deck still being drawn from an earlier upload is replaced by this one.
 */
export async function uploadDeck(
  db: Kysely<Database>,
  store: ObjectStore,
  userId: string,
  projectId: string,
  file: { name: string; bytes: Buffer },
  now = new Date(),
): Promise<{ deckId: string }> {
  await requireProjectRole(db, userId, projectId, "edit");
  const refuse = (message: string) => new DomainError("invalid_input", message, { deck: message });
  if (file.bytes.length === 0) throw refuse(DECK_FILE_MISSING_MESSAGE);
  if (file.bytes.length > DECK_MAX_BYTES) throw refuse(deckRefusalMessage("too_large"));
  if (!looksLikePdf(file.bytes)) throw refuse(deckRefusalMessage("not_pdf"));

  const deckId = crypto.randomUUID();
  await store.put(deckSourceKey(deckId), file.bytes, DECK_SOURCE_TYPE);
  const replaced = await db.transaction().execute(async (trx) => {
    const waiting = await trx
      .updateTable("decks")
      .set({ status: "replaced", claimed_by: null, claimed_until: null })
      .where("project_id", "=", projectId)
      .where("status", "=", "rendering")
      .returning("id")
      .execute();
    await trx
      .insertInto("decks")
      .values({
        id: deckId,
        project_id: projectId,
        status: "rendering",
        file_name: file.name.slice(0, 255) || "deck.pdf",
        file_bytes: file.bytes.length,
        uploaded_by: userId,
        created_at: now.toISOString(),
      })
      .execute();
    return waiting.map((deck) => deck.id);
  });
  // A render of a replaced deck under way elsewhere stops at its next page and deletes what it wrote since.
  for (const gone of replaced) await deleteDeckFiles(store, gone);
  return { deckId };
}
