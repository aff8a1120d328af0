import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "~/db/client.server";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { withAdminDb } from "../support/postgres";
import { nextClientAddress } from "../support/clients";
import { withAppServers } from "../support/with-app-server";
import { PHONE_USER_AGENT } from "../support/demo-on-postgres";
import type { AppServer } from "../support/app-server";

/**
 * Finding 4: three instances on one PostgreSQL, each writing its batch of scans, inserted the same new
 * viewers in different orders and deadlocked; the whole batch answered 500. Here every instance receives the
 * same new fingerprints at once, each in its own order: no request may fail, and the founder's counters must
 * come out exact.
 */
const INSTANCES = 3;
const ROUNDS = 10;
const VIEWERS_PER_ROUND = 40;

describe("scans from three instances on one PostgreSQL", () => {
  const instances = withAppServers(INSTANCES, { postgres: "pitchqr_hardening", env: { AUTH_SECRET: "s".repeat(40) } });
  let app: AppDatabase;
  let appClosed = false;
  let project: { id: string; owner_id: string };
  const qrIds = ["booth", "badge"].map((label) => `${label}-${Math.random().toString(36).slice(2, 10)}`);

  beforeAll(async () => {
    // The app's own database client, to read the founder's analytics as the app does (and close it before the end).
    app = openDatabase({ dialect: "postgres", url: instances.database!.url });
    project = await app.db.selectFrom("projects").select(["id", "owner_id"]).where("slug", "=", "demo-project").executeTakeFirstOrThrow();
    await app.db
      .insertInto("qr_codes")
      .values(
        qrIds.map((id, index) => ({
          id,
          project_id: project.id,
          label: index ? "Badge" : "Booth",
          event_tag: null,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    if (!appClosed) await app?.close();
  });

  const post = (server: AppServer, viewerFingerprint: string, qrCodeId: string | null) =>
    fetch(`${server.url}/api/functions/track-scan`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: server.url,
        "x-forwarded-for": nextClientAddress(),
        "user-agent": PHONE_USER_AGENT,
      },
      body: JSON.stringify({
        projectId: project.id,
        qrCodeId,
        viewerFingerprint,
      }),
    });

  /** Each instance gets the same list in another order: forwards, backwards, and interleaved from the middle. */
  function orderFor(instance: number, fingerprints: string[]): string[] {
    if (instance === 0) return fingerprints;
    if (instance === 1) return [...fingerprints].reverse();
    const middle = Math.floor(fingerprints.length / 2);
    return fingerprints.map((_, index) => fingerprints[(middle + index * 7) % fingerprints.length]!);
  }

  it("answers every identical new viewer sent to all instances at once, and counts each exactly", async () => {
    const before = await loadProjectAnalytics(app.db, project.owner_id, project.id);
    // Viewer n scans the booth code, the badge code, or the plain link, by n % 3.
    const qrOf = (index: number) => (index % 3 === 2 ? null : qrIds[index % 3]!);
    const statuses: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const fingerprints = Array.from({ length: VIEWERS_PER_ROUND }, (_, index) => `round${round}-viewer${String(index).padStart(2, "0")}`);
      const responses = await Promise.all(
        instances.servers.flatMap((server, instance) =>
          orderFor(instance, fingerprints).map((fingerprint) => post(server, fingerprint, qrOf(fingerprints.indexOf(fingerprint)))),
        ),
      );
      statuses.push(...responses.map((response) => response.status));
    }

    const sent = ROUNDS * VIEWERS_PER_ROUND * INSTANCES;
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(statuses).toHaveLength(sent);

    const after = await loadProjectAnalytics(app.db, project.owner_id, project.id);
    expect(after.totalScans - before.totalScans).toBe(sent);
    expect(after.uniqueScans - before.uniqueScans).toBe(ROUNDS * VIEWERS_PER_ROUND);

    // Per round, viewers 0..39: 14 on the booth code (n % 3 = 0), 13 on the badge code, 13 on the plain link.
    const perQr = {
      booth: ROUNDS * 14,
      badge: ROUNDS * 13,
      direct: ROUNDS * 13,
    };
    const code = (id: string) => after.qrCodes.find((qr) => qr.id === id);
    expect(code(qrIds[0]!)).toMatchObject({
      totalScans: perQr.booth * INSTANCES,
      uniqueScans: perQr.booth,
    });
    expect(code(qrIds[1]!)).toMatchObject({
      totalScans: perQr.badge * INSTANCES,
      uniqueScans: perQr.badge,
    });
    const funnel = (source: string) => after.funnel.find((row) => row.source === source);
    const directBefore = before.funnel.find((row) => row.source === "direct")!;
    expect(funnel(`qr:${qrIds[0]}`)).toMatchObject({
      scans: perQr.booth * INSTANCES,
      viewers: perQr.booth,
    });
    expect(funnel(`qr:${qrIds[1]}`)).toMatchObject({
      scans: perQr.badge * INSTANCES,
      viewers: perQr.badge,
    });
    expect(funnel("direct")).toMatchObject({
      scans: directBefore.scans + perQr.direct * INSTANCES,
      viewers: directBefore.viewers + perQr.direct,
    });

    const hourly = (id: string) =>
      (after.scansOverTime.hourly.find((series) => series.qrCodeId === id)?.points ?? []).reduce((sum, point) => sum + point.scans, 0);
    expect(hourly(qrIds[0]!)).toBe(perQr.booth * INSTANCES);
    expect(hourly(qrIds[1]!)).toBe(perQr.badge * INSTANCES);

    const rows = await app.db
      .selectFrom("scans")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("project_id", "=", project.id)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(after.totalScans);
    const viewers = await app.db
      .selectFrom("project_viewers")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("project_id", "=", project.id)
      .where("viewer_fingerprint", "like", "round%")
      .executeTakeFirstOrThrow();
    expect(Number(viewers.n)).toBe(ROUNDS * VIEWERS_PER_ROUND);

    // A deadlock retried in time answers 200 too: the writes must not have deadlocked at all. PostgreSQL adds
    // a session's deadlocks to its statistics when the session ends, so read them once every instance is gone.
    await app.close();
    appClosed = true;
    await Promise.all(instances.servers.map((server) => server.stop()));
    const deadlocks = await withAdminDb(async (admin) => {
      for (;;) {
        const sessions = await admin
          .selectFrom("pg_stat_activity")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("datname", "=", instances.database!.name)
          .executeTakeFirstOrThrow();
        if (Number(sessions.n) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const { deadlocks } = await admin.selectFrom("pg_stat_database").select("deadlocks").where("datname", "=", instances.database!.name).executeTakeFirstOrThrow();
      return Number(deadlocks);
    });
    expect(deadlocks).toBe(0);
  });
});
