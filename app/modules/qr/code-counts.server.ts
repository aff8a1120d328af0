import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { scanSource } from "~/modules/analytics/sources.server";

export type CodeCounts = { scans: number; viewers: number };

/**
 * Each code's scans and unique viewers made for this project (decision 91): a code re-pointed here keeps the scans
 * it brought its first project there, so its part here is this project's source counters, not the code's lifetime
 * ones. A code with no scans here is absent.
 */
export async function readCodeCountsHere(db: Kysely<Database>, projectId: string, qrCodeIds: readonly string[]): Promise<Map<string, CodeCounts>> {
  if (qrCodeIds.length === 0) return new Map();
  const bySource = new Map(qrCodeIds.map((id) => [scanSource(id), id]));
  const rows = await db
    .selectFrom("source_stats")
    .select(["source", "scans", "viewers"])
    .where("project_id", "=", projectId)
    .where("source", "in", [...bySource.keys()])
    .execute();
  return new Map(rows.map((row) => [bySource.get(row.source)!, { scans: Number(row.scans), viewers: Number(row.viewers) }]));
}
