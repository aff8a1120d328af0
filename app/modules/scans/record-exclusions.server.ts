import type { Kysely } from "kysely";
import { retryOnConflict, type ConflictRetryOptions } from "~/db/retry.server";
import type { Database } from "~/db/schema";
import { addToProjectStats, type StatsDelta } from "~/modules/analytics/project-stats.server";
import { compareText } from "./lock-order";
import type { ExclusionReason } from "./scan-input";

const EXCLUSION_COLUMNS = {
  bot: "excluded_bots",
  preview: "excluded_previews",
  prefetch: "excluded_prefetches",
  owner: "excluded_owner_views",
  app: "excluded_app_fetches",
} as const satisfies Record<ExclusionReason, keyof StatsDelta>;

/** Adds excluded page loads to their projects' counters, in one transaction. */
export async function recordExclusions(
  db: Kysely<Database>,
  exclusions: ReadonlyMap<string, ReadonlyMap<ExclusionReason, number>>,
  retry?: ConflictRetryOptions,
): Promise<void> {
  if (exclusions.size === 0) return;
  await retryOnConflict(
    () =>
    db.transaction().execute(async (trx) => {
      for (const projectId of [...exclusions.keys()].sort(compareText)) {
        const delta: StatsDelta = {};
        for (const [reason, count] of exclusions.get(projectId)!) delta[EXCLUSION_COLUMNS[reason]] = count;
        await addToProjectStats(trx, projectId, delta);
      }
    }),
    retry,
  );
}
