import { onTestFinished } from "vitest";
import type { Dialect } from "~/db/dialect.server";
import type { Logger } from "~/modules/logging/logger.server";
import { createLocalProjectEvents, createPostgresProjectEvents, type ProjectEvents } from "~/modules/realtime/project-events.server";
import type { TestDatabase } from "./databases";

/** The realtime path the app uses on each database (local fan-out, or LISTEN/NOTIFY), closed when the test ends. */
export async function projectEventsFor(database: Pick<TestDatabase, "url">, dialect: Dialect, logger: Logger): Promise<ProjectEvents> {
  const events = dialect === "postgres" ? await createPostgresProjectEvents(database.url, logger) : createLocalProjectEvents();
  onTestFinished(() => events.close());
  return events;
}
