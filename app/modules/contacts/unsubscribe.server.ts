import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { addToProjectStats } from "~/modules/analytics/project-stats.server";

/**
 * Clears `subscribed` for every contact with this e-mail (any project; e-mails are stored lower-case). The caller answers
 * the same whether or not the address was known (DESIGN.md item 10), so the count is for logs only.
 */
export async function unsubscribeEmail(db: Kysely<Database>, email: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable("contacts")
      .set({ subscribed: false })
      .where("email", "=", email.toLowerCase())
      .where("subscribed", "=", true)
      .returning("project_id")
      .execute();
    const perProject = new Map<string, number>();
    for (const row of changed) perProject.set(row.project_id, (perProject.get(row.project_id) ?? 0) + 1);
    for (const [projectId, count] of perProject) await addToProjectStats(trx, projectId, { subscribers: -count });
    return changed.length;
  });
}
