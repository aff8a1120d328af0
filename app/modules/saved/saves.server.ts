import type { Kysely } from "kysely";
import { z } from "zod/mini";
import type { Database } from "~/db/schema";
import { addToSourceStats, ALL_SOURCES, resolveSource, UNKNOWN, type VisitorIdentity } from "~/modules/analytics/sources.server";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import { consumeRateLimit, SAVE_PITCH_LIMIT } from "~/modules/rate-limit/rate-limit.server";
import { DIRECT_VIA } from "./saved-list";

/** The save beacon's body: the pitch, and the QR code its page was opened through, if any. */
export const savePitchSchema = z.object({
  projectId: z.string("Project not found").check(z.trim(), z.refine(isRecordId, "Project not found")),
  qrCodeId: z.nullish(z.string().check(z.trim(), z.refine((id) => id === "" || isRecordId(id), "Unknown QR code"))),
});

export type SavePitchInput = z.infer<typeof savePitchSchema>;

/** Who saves: as the page door knows them, and their network address (for the request limit). */
export type SavingVisitor = { identity: VisitorIdentity; clientAddress: string };

/** What the visitor's list records: whether the founder's count grew, and the event the save came through. */
export type PitchSaveOutcome = { counted: boolean; via: string };

/**
 * One visitor saved a published pitch to their phone's list. The founder's count grows once per viewer the page
 * door counted (its viewer cookie, else its daily address hash), attributed to the source of that viewer's latest
 * page load, as actions are (decision 16): a repeated save, or a script that never loaded the page, adds nothing,
 * so saves can never exceed unique viewers. Requests are limited per network address (SAVE_PITCH_LIMIT). Removing a pitch from the list does not take the save back: the
 * count is of visitors who saved it. `via` names the event of the QR code the page was opened through.
 */
export async function recordPitchSave(db: Kysely<Database>, visitor: SavingVisitor, input: SavePitchInput): Promise<PitchSaveOutcome> {
  await consumeRateLimit(db, `save-pitch:${visitor.clientAddress}`, SAVE_PITCH_LIMIT);
  const { identity } = visitor;
  return db.transaction().execute(async (trx) => {
    const project = await trx.selectFrom("projects").select("id").where("id", "=", input.projectId).where("status", "=", "published").executeTakeFirst();
    if (!project) throw new DomainError("not_found", "Project not found");
    const via = await eventNameOf(trx, project.id, input.qrCodeId || null);
    const source = await resolveSource(trx, project.id, identity);
    const viewer = identity.viewerFingerprint ?? (identity.addressHash ? `address:${identity.addressHash}` : null);
    if (source === UNKNOWN || !viewer) return { counted: false, via };
    const isNewSave = await trx
      .insertInto("pitch_saves")
      .values({ project_id: project.id, viewer_fingerprint: viewer, source })
      .onConflict((oc) => oc.columns(["project_id", "viewer_fingerprint"]).doNothing())
      .returning("project_id")
      .executeTakeFirst();
    if (isNewSave) {
      await addToSourceStats(trx, project.id, source, { saves: 1 });
      await addToSourceStats(trx, project.id, ALL_SOURCES, { saves: 1 });
    }
    return { counted: true, via };
  });
}

/** A QR code's event tag (else its label) when the code is this project's, else `Direct`. */
async function eventNameOf(db: Kysely<Database>, projectId: string, qrCodeId: string | null): Promise<string> {
  if (!qrCodeId) return DIRECT_VIA;
  const code = await db.selectFrom("qr_codes").select(["label", "event_tag"]).where("id", "=", qrCodeId).where("project_id", "=", projectId).executeTakeFirst();
  return code ? (code.event_tag ?? code.label) : DIRECT_VIA;
}
