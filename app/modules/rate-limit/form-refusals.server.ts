import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";

export type RefusalReason = "browser" | "address" | "email" | "project";

/** A public form refused by a limit, kept so the founder learns of it (nothing is lost silently). */
export async function recordFormRefusal(db: Kysely<Database>, projectId: string, reason: RefusalReason, now = new Date()): Promise<void> {
  const project = await db.selectFrom("projects").select("id").where("id", "=", projectId).executeTakeFirst();
  if (!project) return;
  await db.insertInto("form_refusals").values({ id: crypto.randomUUID(), project_id: project.id, reason, refused_at: now.toISOString() }).execute();
}

/** How many of a project's form submissions were refused since `since`. */
export async function countFormRefusals(db: Kysely<Database>, projectId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom("form_refusals")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("project_id", "=", projectId)
    .where("refused_at", ">=", since.toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
