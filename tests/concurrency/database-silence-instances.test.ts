// Two instances on one PostgreSQL, one of them cut off from it silently (its packets dropped: a firewall or NAT that
// forgot the connections). That instance answers /healthz "degraded" and its pages with the error page instead of
// hanging, so a balancer's health check takes it out; the other instance, on its own connections, goes on serving
// founders and visitors; once the packets flow again the first serves as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../support/app-server";
import { startDatabaseProxy, type DatabaseProxy } from "../support/live-wall-clients";
import { createPostgresDatabase } from "../support/postgres";
import { signUpAndSignIn, uniqueEmail } from "../support/sign-up";
import { withAppServer } from "../support/with-app-server";

/** Far longer than any answer should take, so that a hang fails the test instead of stalling it. */
const CLIENT_TIMEOUT_MS = 60_000;
const SECRET = "c".repeat(40);

describe("one instance whose PostgreSQL stops answering, beside one that still reaches it", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: DatabaseProxy;
  let cookie: string;

  beforeAll(async () => {
    database = await createPostgresDatabase("pitchqr_concurrency");
    proxy = await startDatabaseProxy(database.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });
  const healthy = withAppServer({ env: () => ({ DATABASE_URL: database.url, AUTH_SECRET: SECRET }) });
  // This one reaches the database through the proxy, which can silence it.
  const cutOff = withAppServer({ env: () => ({ DATABASE_URL: proxy.url, AUTH_SECRET: SECRET }) });
  beforeAll(async () => {
    cookie = await signUpAndSignIn(healthy.url, uniqueEmail("silence-instances"));
  });
  afterAll(() => {
    proxy?.resumeAll();
  });

  const get = async (app: AppServer, path: string) => {
    const response = await fetch(`${app.url}${path}`, { headers: { cookie }, redirect: "manual", signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    return { status: response.status, text: await response.text() };
  };

  it("the cut-off instance says 'degraded' and answers with the error page; the other serves founders and visitors; both serve once it returns", async () => {
    expect((await get(cutOff, "/my-projects")).status).toBe(200);

    proxy.silenceAll();
    const health = await get(cutOff, "/healthz");
    expect([health.status, JSON.parse(health.text)]).toMatchObject([503, { status: "degraded", database: "unanswered" }]);
    const page = await get(cutOff, "/my-projects");
    expect([page.status, page.text.includes("Something went wrong")]).toEqual([500, true]);

    expect((await get(healthy, "/healthz")).status).toBe(200);
    const founder = await get(healthy, "/my-projects");
    expect([founder.status, founder.text.includes("My Projects")]).toEqual([200, true]);
    const pitch = await get(healthy, "/pitch/demo-project");
    expect([pitch.status, pitch.text.includes("<h1")]).toEqual([200, true]);

    proxy.resumeAll();
    await expect.poll(async () => (await get(cutOff, "/healthz")).status, { timeout: 30_000, interval: 250 }).toBe(200);
    const after = await get(cutOff, "/my-projects");
    expect([after.status, after.text.includes("My Projects")]).toEqual([200, true]);
  });
});
