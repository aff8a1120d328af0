// The browser and server suites' one way to run the built app for a file or a describe block: started in a
// `beforeAll` (on its own SQLite file, or on a fresh PostgreSQL database), stopped in an `afterAll`, its log shown
// when a test fails, and a typed connection to its database for the assertions.
import { afterAll, beforeAll } from "vitest";
import { startAppServer, type AppServer } from "./app-server";
import { showServerLogsOnFailure } from "./clients";
import { createPostgresDatabase } from "./postgres";
import { openTestDb, type TestDb } from "./test-db";

type Env = Record<string, string>;
type PostgresDatabase = Awaited<ReturnType<typeof createPostgresDatabase>>;

export type WithAppServerOptions = {
  /** Read when the servers start, so it may name something an earlier `beforeAll` started (an SMTP server, a proxy). */
  env?: Env | ((database: PostgresDatabase | undefined) => Env);
  /**
   * A fresh PostgreSQL database made before the servers start (its name beginning with this prefix) and dropped
   * after they stop; the servers use it unless `env` gives them another DATABASE_URL (a proxy in front of it).
   */
  postgres?: string;
};

export type TestAppServers = {
  servers: AppServer[];
  /** The servers' database, typed (read-only on SQLite). */
  db: TestDb;
  /** The PostgreSQL database made for them, when `postgres` was given. */
  database: PostgresDatabase | undefined;
};

export type TestAppServer = AppServer & { db: TestDb; database: PostgresDatabase | undefined };

/**
 * `count` instances of the app on one database, set up in a `beforeAll` and stopped in an `afterAll` (after the
 * hooks registered later have run: vitest runs `afterAll` hooks in reverse). They start one after the other, so the
 * first migrates and seeds the database before the others start. The fields are filled in by the time a test runs.
 */
export function withAppServers(count: number, options: WithAppServerOptions = {}): TestAppServers {
  const used = { servers: [] as AppServer[] } as TestAppServers;
  beforeAll(async () => {
    if (options.postgres) used.database = await createPostgresDatabase(options.postgres);
    const env = { ...(used.database ? { DATABASE_URL: used.database.url } : {}), ...(typeof options.env === "function" ? options.env(used.database) : options.env) };
    for (let index = 0; index < count; index += 1) used.servers.push(await startAppServer({ env }));
    used.db = openTestDb({ dataDir: used.servers[0]!.dataDir, databaseUrl: used.database?.url ?? env.DATABASE_URL });
  });
  afterAll(async () => {
    await used.db?.destroy();
    await Promise.all(used.servers.map((server) => server.stop()));
    await used.database?.drop();
  });
  showServerLogsOnFailure(() => used.servers);
  return used;
}

/** One instance of the app, as `withAppServers(1, options)` runs it: the server's fields, its `db` and `database`. */
export function withAppServer(options: WithAppServerOptions = {}): TestAppServer {
  const server = {} as TestAppServer;
  const used = withAppServers(1, options);
  beforeAll(() => {
    Object.assign(server, used.servers[0], { db: used.db, database: used.database });
  });
  return server;
}
