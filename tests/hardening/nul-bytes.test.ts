import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../support/app-server";
import { createPostgresDatabase } from "../support/postgres";
import { nextClientAddress, showServerLogsOnFailure } from "../e2e/support";

/**
 * Issue 15, defect 2: PostgreSQL refuses text holding a NUL character. A NUL in a form field answered 500,
 * and a NUL fingerprint in `track-scan` failed the whole batch it was written with, losing the good scans
 * sent in the same tick. Run on PostgreSQL, where the failure showed.
 */
const PHONE_USER_AGENT =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

describe("NUL characters, on PostgreSQL", () => {
  let server: AppServer;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let client: pg.Client;
  let projectId: string;

  beforeAll(async () => {
    database = await createPostgresDatabase("pitchqr_hardening");
    server = await startAppServer({ env: { DATABASE_URL: database.url } });
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ id: string }>("select id from projects where slug = 'demo-project'");
    projectId = rows[0]!.id;
  });
  afterAll(async () => {
    await client?.end();
    await server?.stop();
    await database?.drop();
  });
  showServerLogsOnFailure(() => [server]);

  const scanCount = async () => Number((await client.query("select count(*) as n from scans where project_id = $1", [projectId])).rows[0].n);

  it("a poisoned scan among 50 good ones is refused alone; the 50 are stored", async () => {
    const before = await scanCount();
    const post = (viewerFingerprint: string) =>
      fetch(`${server.url}/api/functions/track-scan`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: server.url,
          "x-forwarded-for": nextClientAddress(),
          "user-agent": PHONE_USER_AGENT,
        },
        body: JSON.stringify({ projectId, qrCodeId: null, viewerFingerprint }),
      });
    const responses = await Promise.all([
      ...Array.from({ length: 25 }, (_, index) => post(`good-${index}`)),
      post("poison\u0000"),
      ...Array.from({ length: 25 }, (_, index) => post(`good-${25 + index}`)),
    ]);
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses[25]).toBe(400);
    expect(await responses[25]!.json()).toMatchObject({ error: "Please remove the invalid characters" });
    expect((await scanCount()) - before).toBe(50);
  });

  it.each([
    ["intro", { name: "Eve\u0000", email: "eve@example.com", note: "hello" }],
    ["subscribe", { name: "Eve", email: "eve@example.com", consent: "on", extra: "\u0000" }],
  ])("a NUL in a %s form field answers 400 with a clear message and stores nothing", async (intent, fields) => {
    const before = Number((await client.query("select count(*) as n from contacts where project_id = $1", [projectId])).rows[0].n);
    const response = await fetch(`${server.url}/pitch/demo-project`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, "x-forwarded-for": nextClientAddress() },
      body: new URLSearchParams({ intent, ...fields }).toString(),
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Please remove the invalid characters");
    const after = Number((await client.query("select count(*) as n from contacts where project_id = $1", [projectId])).rows[0].n);
    expect(after).toBe(before);
  });

  it("a NUL in a pitch address or its ?qr= answers like any unknown page, never 500", async () => {
    expect((await fetch(`${server.url}/pitch/demo%00project`)).status).toBe(404);
    const response = await fetch(`${server.url}/pitch/demo-project?qr=%00`, { headers: { "x-forwarded-for": nextClientAddress() } });
    expect(response.status).toBe(200);
  });
});
