import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { deckSourceOf, loadDeckReaders } from "./deck-readers.server";

/** The Analytics page: the project's figures and its deck's reading, for the code the `?audience=` choice names. */
export async function loadAnalyticsPage(db: Kysely<Database>, userId: string, projectId: string, audience: string | null) {
  const [analytics, deckReaders] = await Promise.all([loadProjectAnalytics(db, userId, projectId), loadDeckReaders(db, userId, projectId, deckSourceOf(audience))]);
  return { analytics, deckReaders };
}
