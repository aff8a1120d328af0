import { sql, type Kysely } from "kysely";
import type { Database } from "~/db/schema";

export type StatsDelta = Partial<
  Record<
    | "total_scans"
    | "unique_scans"
    | "intros"
    | "subscribers"
    | "signals"
    | "excluded_bots"
    | "excluded_previews"
    | "excluded_prefetches"
    | "excluded_owner_views"
    | "excluded_app_fetches",
    number
  >
>;

/**
 * Adds to a project's exact counters, inside the caller's transaction. Every write that changes what the
 * analytics page counts goes through here, so the page reads one row instead of counting.
 */
export async function addToProjectStats(db: Kysely<Database>, projectId: string, delta: StatsDelta): Promise<void> {
  const entries = Object.entries(delta).filter(([, value]) => value) as [keyof StatsDelta, number][];
  if (entries.length === 0) return;
  const insert = { project_id: projectId, ...Object.fromEntries(entries.map(([key, value]) => [key, Math.max(0, value)])) };
  await db
    .insertInto("project_stats")
    .values(insert)
    .onConflict((oc) =>
      oc.column("project_id").doUpdateSet(
        Object.fromEntries(entries.map(([key, value]) => [key, sql`project_stats.${sql.ref(key)} + ${value}`])),
      ),
    )
    .execute();
}
