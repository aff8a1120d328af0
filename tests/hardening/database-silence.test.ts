// A PostgreSQL whose packets are silently dropped (a firewall or NAT that forgot the connections, a host that
// vanished): nothing is refused or reset, the answers just never come, and real TCP would wait about 15 minutes.
// Requests hung with it and /healthz never answered. With the pool's time limits, /healthz says "degraded" with the
// database unanswered (its own deadline is 1.5 s), a founder's page answers with the generic error page, and once the
// packets flow again the app serves as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withAppServer } from "../support/with-app-server";
import { startDatabaseProxy, type DatabaseProxy } from "../support/live-wall-clients";
import { createPostgresDatabase } from "../support/postgres";
import { signUpAndSignIn, uniqueEmail } from "../support/sign-up";


/** Far longer than any answer should take, so that a hang fails the test instead of stalling it. */
const CLIENT_TIMEOUT_MS = 60_000;

describe("a PostgreSQL that stops answering [postgres]", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: DatabaseProxy;
  let cookie: string;

  beforeAll(async () => {
    database = await createPostgresDatabase("pitchqr_hardening");
    proxy = await startDatabaseProxy(database.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });
  // The app reaches its database through the proxy, which can silence it.
  const app = withAppServer({ env: () => ({ DATABASE_URL: proxy.url, AUTH_SECRET: "s".repeat(40) }) });
  beforeAll(async () => {
    cookie = await signUpAndSignIn(app.url, uniqueEmail("silence"));
  });
  afterAll(() => {
    proxy?.resumeAll();
  });

  const health = async () => {
    const response = await fetch(`${app.url}/healthz`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const myProjects = async () => {
    const response = await fetch(`${app.url}/my-projects`, { headers: { cookie }, redirect: "manual", signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    return { status: response.status, text: await response.text() };
  };

  it("answers /healthz 'degraded' and a founder's page with the error page, then recovers when the database does", async () => {
    expect((await myProjects()).status).toBe(200);

    proxy.silenceAll();
    const silenced = Date.now();
    expect(await health()).toMatchObject({ status: 503, body: { status: "degraded", database: "unanswered" } });
    const healthAnswered = Date.now();
    const page = await myProjects();
    expect(page.status).toBe(500);
    expect(page.text).toContain("Something went wrong");
    console.log(`with the database silent: /healthz answered in ${healthAnswered - silenced} ms, a founder's page in ${Date.now() - healthAnswered} ms`);
    expect(await health()).toMatchObject({ status: 503, body: { status: "degraded", database: "unanswered" } });

    proxy.resumeAll();
    await expect.poll(async () => (await health()).status, { timeout: 30_000, interval: 250 }).toBe(200);
    const after = await myProjects();
    expect(after.status).toBe(200);
    expect(after.text).toContain("My Projects");
  });
});
