import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../support/app-server";
import { createPostgresDatabase } from "../support/postgres";
import { nextClientAddress, showServerLogsOnFailure } from "../support/clients";

/**
 * Issue 14, item 5: three instances on one PostgreSQL each received the same subscription at the same moment, and
 * most addresses got two or three contacts and as many welcome e-mails. Each address is sent to every instance at
 * once; the database's one contact per address decides, so one contact and one welcome remain.
 */
const INSTANCES = 3;
const ADDRESSES = 20;

describe("the same subscription to three instances at once, on PostgreSQL", () => {
  const servers: AppServer[] = [];
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let client: pg.Client;
  let projectId: string;

  beforeAll(async () => {
    database = await createPostgresDatabase("pitchqr_hardening");
    const env = { DATABASE_URL: database.url, AUTH_SECRET: "concurrent-subscriptions-test-secret-0123456789" };
    // One after the other, so the first migrates and seeds before the others start.
    for (let index = 0; index < INSTANCES; index += 1) servers.push(await startAppServer({ env }));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ id: string }>("select id from projects where slug = 'demo-project'");
    projectId = rows[0]!.id;
  });
  afterAll(async () => {
    await client?.end();
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });
  showServerLogsOnFailure(() => servers);

  it("writes one contact and one welcome per address, and counts each subscriber once", async () => {
    const before = await client.query<{ subscribers: number }>("select subscribers from project_stats where project_id = $1", [projectId]);
    const subscribersBefore = Number(before.rows[0]?.subscribers ?? 0);
    const emails = Array.from({ length: ADDRESSES }, (_, index) => `race-${index}@example.com`);
    const subscribe = (server: AppServer, email: string, clientAddress: string) =>
      fetch(`${server.url}/api/functions/subscribe-updates`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": clientAddress },
        body: JSON.stringify({ projectId, contact: { name: "Race Tester", email }, consent: true }),
      });
    // Each address from one phone, its request reaching every instance.
    const responses = await Promise.all(
      emails.flatMap((email) => {
        const clientAddress = nextClientAddress();
        return servers.map((server) => subscribe(server, email, clientAddress));
      }),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(ADDRESSES * INSTANCES).fill(200));

    const contacts = await client.query<{ email: string; n: string }>(
      "select email, count(*) as n from contacts where project_id = $1 and email like 'race-%' group by email",
      [projectId],
    );
    expect(contacts.rows).toHaveLength(ADDRESSES);
    expect(contacts.rows.filter((row) => Number(row.n) !== 1)).toEqual([]);
    const welcomes = await client.query<{ recipient: string; n: string }>(
      "select recipient, count(*) as n from mail_outbox where kind = 'welcome' and recipient like 'race-%' group by recipient",
      [],
    );
    expect(welcomes.rows).toHaveLength(ADDRESSES);
    expect(welcomes.rows.filter((row) => Number(row.n) !== 1)).toEqual([]);
    const after = await client.query<{ subscribers: number }>("select subscribers from project_stats where project_id = $1", [projectId]);
    expect(Number(after.rows[0]!.subscribers) - subscribersBefore).toBe(ADDRESSES);
  });
});
