// The live Recognition Wall under concurrent writers, on several instances of the built app:
// every open stream receives every entry exactly once, in order, also while the PostgreSQL listener is
// terminated and kept out, and after a few seconds of refused database connections; /healthz says
// "degraded" meanwhile and "ok" after. On SQLite, one instance.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTENER_APPLICATION_NAME } from "~/modules/realtime/project-events.server";
import { startAppServer, type AppServer } from "../support/app-server";
import { openWallStreamClient, postPublicSignal, startDatabaseProxy, type DatabaseProxy, type WallStreamClient } from "../support/live-wall-clients";
import { createPostgresDatabase, withAdminDb } from "../support/postgres";
import { showServerLogsOnFailure } from "../support/clients";
import { openTestDb, projectIdBySlug, type TestDb } from "../support/test-db";

const SLUG = "demo-project";
const WRITERS = 12;
const AUTH_SECRET = "concurrency-test-secret-0123456789-abcdefghij";

let runCounter = 0;

/** `count` public signals from 12 concurrent writers, each writer's posts spread over the instances; returns the names. */
async function writeSignals(apps: AppServer[], tierId: string, count: number): Promise<string[]> {
  runCounter += 1;
  const names: string[] = [];
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (let n = writer; n < count; n += WRITERS) {
        const name = `Backer r${runCounter} w${writer} n${n}`;
        names.push(name);
        await postPublicSignal(apps[n % apps.length]!.url, SLUG, { tierId, name, email: `r${runCounter}-${n}-${process.pid}@example.com` });
      }
    }),
  );
  return names;
}

/** What each stream got compared with the wall itself: every entry past its start once, in wall order. */
function deliveries(streams: { client: WallStreamClient; from: number }[], wall: { seq: number; displayName: string }[]) {
  let expected = 0;
  let received = 0;
  let missing = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  for (const { client, from } of streams) {
    const wanted = wall.filter((entry) => entry.seq > from).map((entry) => entry.displayName);
    const got = client.entries.map((entry) => entry.displayName);
    expected += wanted.length;
    received += got.length;
    const gotSet = new Set(got);
    missing += wanted.filter((name) => !gotSet.has(name)).length;
    duplicated += got.length - gotSet.size;
    if (JSON.stringify(got) !== JSON.stringify(wanted) && got.length === wanted.length) outOfOrder += 1;
  }
  return { expected, received, missing, duplicated, outOfOrder };
}

const allDelivered = (streams: { client: WallStreamClient; from: number }[], wall: { seq: number }[]) =>
  streams.every(({ client, from }) => client.entries.length >= wall.filter((entry) => entry.seq > from).length);

async function health(app: AppServer): Promise<{ status: number; body: { status?: string; realtime?: string } }> {
  const response = await fetch(`${app.url}/healthz`);
  return { status: response.status, body: (await response.json()) as { status?: string; realtime?: string } };
}

const logLines = (app: AppServer, text: string) => app.logs.filter((line) => line.includes(text)).length;

/** The project's wall, in wall order. */
const wallOf = (db: TestDb, projectId: string) =>
  db.selectFrom("recognition_entries").select(["wall_seq as seq", "display_name as displayName"]).where("project_id", "=", projectId).orderBy("wall_seq").execute();

/** The id of the project's first tier. */
const firstTierId = async (db: TestDb, projectId: string) =>
  (await db.selectFrom("signal_tiers").select("id").where("project_id", "=", projectId).orderBy("sort_order").limit(1).executeTakeFirstOrThrow()).id;

describe("the live wall on three instances sharing PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: DatabaseProxy;
  const apps: AppServer[] = [];
  /** The test's own reader, straight to the database (not through the proxy the instances use). */
  let admin: TestDb;
  let projectId: string;
  let tierId: string;
  const streams: { client: WallStreamClient; from: number }[] = [];
  showServerLogsOnFailure(() => apps);

  const wall = () => wallOf(admin, projectId);
  const listenerBackends = async () =>
    Number(
      (
        await withAdminDb((db) =>
          db
            .selectFrom("pg_stat_activity")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("datname", "=", database.name)
            .where("application_name", "=", LISTENER_APPLICATION_NAME)
            .executeTakeFirstOrThrow(),
        )
      ).n,
    );

  beforeAll(async () => {
    database = await createPostgresDatabase("pitchqr_concurrency");
    proxy = await startDatabaseProxy(database.url);
    for (let i = 0; i < 3; i += 1) {
      apps.push(await startAppServer({ env: { DATABASE_URL: proxy.url, AUTH_SECRET, LOG_LEVEL: "info" } }));
    }
    admin = openTestDb({ dataDir: apps[0]!.dataDir, databaseUrl: database.url });
    projectId = await projectIdBySlug(admin, SLUG);
    tierId = await firstTierId(admin, projectId);
    const start = (await wall()).at(-1)?.seq ?? 0;
    for (const app of apps) {
      for (let i = 0; i < 3; i += 1) streams.push({ client: await openWallStreamClient(app.url, projectId), from: start });
    }
  });

  afterAll(async () => {
    for (const { client } of streams) client.close();
    await admin?.destroy();
    await Promise.all(apps.map((app) => app.stop()));
    await proxy?.close();
    await database?.drop();
  });

  it("delivers 200 entries from 12 concurrent writers to every stream on every instance exactly once, in order, through a listener loss and an outage", async () => {
    // Phase 1: all is well.
    await writeSignals(apps, tierId, 104);
    await expect.poll(async () => allDelivered(streams, await wall()), { timeout: 30_000 }).toBe(true);
    let current = await wall();
    expect(current).toHaveLength(4 + 104);
    expect(deliveries(streams, current)).toEqual({ expected: 9 * 104, received: 9 * 104, missing: 0, duplicated: 0, outOfOrder: 0 });

    // A client that leaves now and comes back at the end with its Last-Event-ID.
    const leaving = streams.pop()!;
    leaving.client.close();
    const leftAt = Number(leaving.client.lastEventId());

    // Phase 2: every listener is terminated and kept out; the database itself answers.
    expect(await listenerBackends()).toBe(3);
    proxy.refuseApplication(LISTENER_APPLICATION_NAME);
    await withAdminDb((db) =>
      db
        .selectFrom("pg_stat_activity")
        .select((eb) => eb.fn<boolean>("pg_terminate_backend", ["pid"]).as("terminated"))
        .where("datname", "=", database.name)
        .where("application_name", "=", LISTENER_APPLICATION_NAME)
        .execute(),
    );
    for (const app of apps) await expect.poll(async () => (await health(app)).body.realtime, { timeout: 10_000 }).toBe("degraded");
    await writeSignals(apps, tierId, 48);
    // Open walls poll the database meanwhile: nothing waits for the listener.
    await expect.poll(async () => allDelivered(streams, await wall()), { timeout: 30_000 }).toBe(true);
    for (const app of apps) expect(await health(app)).toMatchObject({ status: 200, body: { status: "ok", realtime: "degraded" } });
    proxy.admitAll();
    for (const app of apps) await expect.poll(async () => (await health(app)).body.realtime, { timeout: 15_000 }).toBe("ok");
    // One listener per instance again, never two.
    expect(await listenerBackends()).toBe(3);

    // Phase 3: ~5 s of refused database connections, every open one cut.
    proxy.refuseAll();
    for (const app of apps) await expect.poll(async () => (await health(app)).body.realtime, { timeout: 10_000 }).toBe("degraded");
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    proxy.admitAll();
    for (const app of apps) await expect.poll(async () => (await health(app)).body, { timeout: 20_000 }).toMatchObject({ status: "ok", realtime: "ok" });
    expect(await listenerBackends()).toBe(3);
    await writeSignals(apps, tierId, 48);

    await expect.poll(async () => allDelivered(streams, await wall()), { timeout: 30_000 }).toBe(true);
    current = await wall();
    expect(current).toHaveLength(4 + 200);
    expect(current.map((entry) => entry.seq)).toEqual(Array.from({ length: 204 }, (_, i) => i + 1));
    expect(deliveries(streams, current)).toEqual({ expected: 8 * 200, received: 8 * 200, missing: 0, duplicated: 0, outOfOrder: 0 });
    for (const { client } of streams) expect(client.entries.map((entry) => entry.seq)).toEqual(current.slice(4).map((entry) => entry.seq));

    // The client that left resumes on another instance from its Last-Event-ID: the rest, once.
    const back = await openWallStreamClient(apps[1]!.url, projectId, { lastEventId: String(leftAt) });
    await expect.poll(() => back.entries.length, { timeout: 10_000 }).toBe(204 - leftAt);
    back.close();
    expect(back.entries.map((entry) => entry.seq)).toEqual(current.filter((entry) => entry.seq > leftAt).map((entry) => entry.seq));

    // Each loss and each recovery said once per instance, not per attempt to listen again.
    for (const app of apps) {
      expect(logLines(app, "realtime degraded")).toBe(2);
      expect(logLines(app, "realtime recovered")).toBe(2);
    }
  }, 180_000);
});

describe("the live wall on one instance on SQLite", () => {
  let app: AppServer;
  showServerLogsOnFailure(() => [app]);
  let db: TestDb;
  let projectId: string;
  let tierId: string;
  const streams: { client: WallStreamClient; from: number }[] = [];
  const wall = () => wallOf(db, projectId);

  beforeAll(async () => {
    app = await startAppServer();
    db = openTestDb({ dataDir: app.dataDir });
    projectId = await projectIdBySlug(db, SLUG);
    tierId = await firstTierId(db, projectId);
    for (let i = 0; i < 4; i += 1) streams.push({ client: await openWallStreamClient(app.url, projectId), from: 4 });
  });

  afterAll(async () => {
    for (const { client } of streams) client.close();
    await db?.destroy();
    await app?.stop();
  });

  it("delivers 60 entries from 12 concurrent writers to every stream exactly once, in order; a returning client gets the rest", async () => {
    await writeSignals([app], tierId, 30);
    const leaving = streams.pop()!;
    await expect.poll(() => leaving.client.entries.length, { timeout: 30_000 }).toBe(30);
    leaving.client.close();
    await writeSignals([app], tierId, 30);
    await expect.poll(async () => allDelivered(streams, await wall()), { timeout: 30_000 }).toBe(true);
    const current = await wall();
    expect(current.map((entry) => entry.seq)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    expect(deliveries(streams, current)).toEqual({ expected: 3 * 60, received: 3 * 60, missing: 0, duplicated: 0, outOfOrder: 0 });

    const back = await openWallStreamClient(app.url, projectId, { lastEventId: leaving.client.lastEventId()! });
    await expect.poll(() => back.entries.length, { timeout: 10_000 }).toBe(30);
    back.close();
    expect(back.entries.map((entry) => entry.seq)).toEqual(current.slice(-30).map((entry) => entry.seq));
  }, 120_000);
});
