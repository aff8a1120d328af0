// A PostgreSQL connection cut while it is checked out (mid-transaction, or mid-query) fails that work with an
// error and nothing else: pg emits "error" on the client too, and an unheard "error" event would end the process
// (seen as an instance dying when a test cut every database connection). Afterwards the pool serves again.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "~/db/client.server";
import { startDatabaseProxy, type DatabaseProxy } from "../support/live-wall-clients";
import { createPostgresDatabase } from "../support/postgres";

describe("a PostgreSQL outage during a transaction [postgres]", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: DatabaseProxy;
  let app: AppDatabase;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    proxy = await startDatabaseProxy(database.url);
    app = openDatabase({ dialect: "postgres", url: proxy.url });
  });

  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await database?.drop();
  });

  it("fails the transaction whose connection was cut, and the next query is served once the database is back", async () => {
    const work = app.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      proxy.refuseAll();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sql`select 2`.execute(trx);
    });
    await expect(work).rejects.toThrow();

    proxy.admitAll();
    const { rows } = await sql<{ answer: number }>`select 42 as answer`.execute(app.db);
    expect(rows).toEqual([{ answer: 42 }]);
  });
});
