import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { bumpContentVersion } from "~/modules/projects/projects.server";

/** Whether visitors may download the uploaded deck's PDF from the pitch page (off until the founder says so). */
export async function setDeckDownload(db: Kysely<Database>, userId: string, projectId: string, allowed: boolean): Promise<void> {
  await requireProjectRole(db, userId, projectId, "edit");
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("projects").set({ deck_download: allowed }).where("id", "=", projectId).execute();
    await bumpContentVersion(trx, projectId);
  });
}
