import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";

/**
 * Ties the door's viewer to the lead their form wrote (decision 99), inside the form's transaction: what this
 * browser read of the deck before the form, and reads after it, is that person's. A browser whose forms name
 * another person later moves to that lead, as its latest form says who is holding it.
 */
export async function linkViewerToLead(trx: Kysely<Database>, link: { projectId: string; viewerFingerprint: string; leadId: string }): Promise<void> {
  await trx
    .insertInto("lead_viewers")
    .values({ project_id: link.projectId, viewer_fingerprint: link.viewerFingerprint, lead_id: link.leadId })
    .onConflict((oc) => oc.columns(["project_id", "viewer_fingerprint"]).doUpdateSet({ lead_id: link.leadId }))
    .execute();
  await trx
    .updateTable("deck_views")
    .set({ lead_id: link.leadId })
    .where("project_id", "=", link.projectId)
    .where("viewer_fingerprint", "=", link.viewerFingerprint)
    .where("audience", "=", "reader")
    .execute();
}
