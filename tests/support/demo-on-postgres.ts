// The hardening suites' usual ground: one built app on a fresh PostgreSQL database (seeded with the demo project
// at start-up), a client on that database to read what was stored, and the demo project's id.
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { showServerLogsOnFailure } from "./clients";
import { startAppServer, type AppServer } from "./app-server";
import { createPostgresDatabase } from "./postgres";

/** A phone browser, as door counting and the venue limits see a visitor. */
export const PHONE_USER_AGENT =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

export type DemoOnPostgres = {
  server: AppServer;
  database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  client: pg.Client;
  projectId: string;
};

/** Set up before the suite's tests and dropped after them; the fields are filled in by then. */
export function useDemoOnPostgres(): DemoOnPostgres {
  const demo = {} as DemoOnPostgres;
  beforeAll(async () => {
    demo.database = await createPostgresDatabase("pitchqr_hardening");
    demo.server = await startAppServer({ env: { DATABASE_URL: demo.database.url } });
    demo.client = new pg.Client({ connectionString: demo.database.url });
    await demo.client.connect();
    const { rows } = await demo.client.query<{ id: string }>("select id from projects where slug = 'demo-project'");
    demo.projectId = rows[0]!.id;
  });
  afterAll(async () => {
    await demo.client?.end();
    await demo.server?.stop();
    await demo.database?.drop();
  });
  showServerLogsOnFailure(() => [demo.server]);
  return demo;
}
