// A NAT or firewall that forgets the LISTEN connection sends no reset, so without a heartbeat the
// instance never noticed (walls and booth screens froze while /healthz said "ok"). A proxy of the test's own
// between the listener and PostgreSQL stops forwarding without closing; the listener must notice, say "degraded"
// while it cannot listen, listen again, and deliver what is published after.
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresProjectEvents, LISTENER_APPLICATION_NAME, type ProjectEvent, type ProjectEvents } from "~/modules/realtime/project-events.server";
import { startDatabaseProxy, type DatabaseProxy } from "../support/live-wall-clients";
import { createPostgresDatabase } from "../support/postgres";

describe("the PostgreSQL listener on a connection that goes silent", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: DatabaseProxy;
  let events: ProjectEvents;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase("pitchqr_heartbeat");
    proxy = await startDatabaseProxy(database.url);
    const logger = pino(
      { level: "info" },
      new Writable({
        write(chunk, _encoding, done) {
          logLines.push(String(chunk));
          done();
        },
      }),
    );
    // The app's defaults are 10 s and 5 s (found out within 15 s); shorter here so the test is quick.
    events = await createPostgresProjectEvents(proxy.url, logger, { intervalMs: 200, deadlineMs: 400 });
  });

  afterAll(async () => {
    await events?.close();
    await proxy?.close();
    await database?.drop();
  });

  it("notices, reports degraded while it cannot listen, listens again, and delivers what comes after", async () => {
    const received: ProjectEvent[] = [];
    events.subscribe("project-1", (event) => received.push(event));
    await events.publish({ projectId: "project-1", kind: "activity" });
    await expect.poll(() => received.filter((event) => event.kind === "activity").length).toBe(1);
    expect(events.status()).toBe("ok");

    // The connection goes silent (no reset), and new listener connections are kept out for now.
    proxy.refuseApplication(LISTENER_APPLICATION_NAME);
    expect(proxy.stallApplication(LISTENER_APPLICATION_NAME)).toBe(1);
    await expect.poll(() => events.status(), { timeout: 10_000 }).toBe("degraded");
    expect(logLines.some((line) => line.includes("realtime degraded"))).toBe(true);

    // Open screens reread the database meanwhile ("wall" events to everything watched).
    await expect.poll(() => received.filter((event) => event.kind === "wall").length, { timeout: 10_000 }).toBeGreaterThan(0);

    proxy.admitAll();
    await expect.poll(() => events.status(), { timeout: 10_000 }).toBe("ok");
    await events.publish({ projectId: "project-1", kind: "booth" });
    await expect.poll(() => received.filter((event) => event.kind === "booth").length, { timeout: 10_000 }).toBe(1);
    expect(logLines.filter((line) => line.includes("realtime recovered"))).toHaveLength(1);
  });
});
