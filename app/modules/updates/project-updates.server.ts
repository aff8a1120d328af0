import type { Kysely } from "kysely";
import type { Database, ShippedUpdate } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { bumpContentVersion } from "~/modules/projects/projects.server";
import type { ProjectUpdateInput } from "./project-update-form";

/**
 * A founder's 'what shipped' post: kept for the Friday digest, shown in the activity feed, and the pitch page's
 * 'Last shipped' moves to now (the page cache is invalidated in the same transaction).
 */
export async function postProjectUpdate(
  db: Kysely<Database>,
  ownerId: string,
  projectId: string,
  input: ProjectUpdateInput,
  now = new Date(),
): Promise<ShippedUpdate> {
  const project = await requireProjectRole(db, ownerId, projectId, "edit");
  const update = { id: crypto.randomUUID(), project_id: project.id, body: input.body, created_at: now.toISOString(), digest_slot: null };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("project_updates").values(update).execute();
    await trx.updateTable("projects").set({ last_shipped_at: update.created_at }).where("id", "=", project.id).execute();
    await bumpContentVersion(trx, project.id);
  });
  return update;
}

/** The owner's latest updates for a project, newest first, with whether the digest has mailed them yet. */
export async function listProjectUpdates(db: Kysely<Database>, ownerId: string, projectId: string, limit = 5): Promise<ShippedUpdate[]> {
  await requireProjectRole(db, ownerId, projectId, "view");
  return db
    .selectFrom("project_updates")
    .selectAll()
    .where("project_id", "=", projectId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** The project's updates section: the project's name and its latest updates. */
export async function loadProjectUpdatesSection(db: Kysely<Database>, ownerId: string, projectId: string) {
  const project = await requireProjectRole(db, ownerId, projectId, "view");
  return { project, updates: await listProjectUpdates(db, ownerId, projectId) };
}
