import { beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../support/app-server";
import { nextClientAddress } from "../support/clients";
import { projectIdBySlug } from "../support/test-db";
import { withAppServers } from "../support/with-app-server";

/**
 * Three instances on one PostgreSQL each received the same subscription at the same moment, and
 * most addresses got two or three contacts and as many welcome e-mails. Each address is sent to every instance at
 * once; the database's one contact per address decides, so one contact and one welcome remain.
 */
const INSTANCES = 3;
const ADDRESSES = 20;

describe("the same subscription to three instances at once, on PostgreSQL", () => {
  const instances = withAppServers(INSTANCES, { postgres: "pitchqr_hardening", env: { AUTH_SECRET: "concurrent-subscriptions-test-secret-0123456789" } });
  let projectId: string;

  beforeAll(async () => {
    projectId = await projectIdBySlug(instances.db, "demo-project");
  });

  it("writes one contact and one welcome per address, and counts each subscriber once", async () => {
    const subscribers = async () => (await instances.db.selectFrom("project_stats").select("subscribers").where("project_id", "=", projectId).executeTakeFirst())?.subscribers;
    const subscribersBefore = Number((await subscribers()) ?? 0);
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
        return instances.servers.map((server) => subscribe(server, email, clientAddress));
      }),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(ADDRESSES * INSTANCES).fill(200));

    const contacts = await instances.db
      .selectFrom("contacts")
      .select((eb) => ["email", eb.fn.countAll().as("n")])
      .where("project_id", "=", projectId)
      .where("email", "like", "race-%")
      .groupBy("email")
      .execute();
    expect(contacts).toHaveLength(ADDRESSES);
    expect(contacts.filter((row) => Number(row.n) !== 1)).toEqual([]);
    const welcomes = await instances.db
      .selectFrom("mail_outbox")
      .select((eb) => ["recipient", eb.fn.countAll().as("n")])
      .where("kind", "=", "welcome")
      .where("recipient", "like", "race-%")
      .groupBy("recipient")
      .execute();
    expect(welcomes).toHaveLength(ADDRESSES);
    expect(welcomes.filter((row) => Number(row.n) !== 1)).toEqual([]);
    expect(Number(await subscribers()) - subscribersBefore).toBe(ADDRESSES);
  });
});
