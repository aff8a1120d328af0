import { afterAll, beforeAll, expect, it } from "vitest";
import { submitIntro, subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { validate } from "~/modules/forms/validation";
import { updateLeadTriage } from "~/modules/leads/inbox/lead-triage.server";
import { createLogger } from "~/modules/logging/logger.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { signalSchema } from "~/modules/signals/signal-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { recordScans } from "~/modules/scans/scans.server";
import { recordSignal } from "~/modules/signals/signals.server";
import { Webhook } from "standardwebhooks";
import { WEBHOOK_PAUSE_AFTER_MS, WebhookWorker } from "~/modules/webhooks/webhook-delivery.server";
import { HTTPS_REQUIRED_MESSAGE, INTERNAL_TARGET_MESSAGE, isPublicAddress } from "~/modules/webhooks/webhook-target.server";
import {
  addWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  resumeWebhookEndpoint,
  sendWebhookTestEvent,
  signWebhook,
  WEBHOOK_PAUSED_TEST_MESSAGE,
  type WebhookPayload,
} from "~/modules/webhooks/webhooks.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, createUser, TEST_PUBLIC_URL, testMailLinks } from "../support/fixtures";
import { hasValidSignature, startWebhookReceiver } from "../support/webhook-receiver";

type Db = TestDatabase["db"];
const anonymous = { userId: null };
const logger = createLogger("silent");
const LOCAL_RECEIVERS = { allowPrivateTargets: true };
const PUBLIC_ONLY = { allowPrivateTargets: false };

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

const intro = (db: Db, projectId: string, fields: Record<string, unknown>) =>
  submitIntro(db, testMailLinks, projectId, parse(introSchema, { note: "Let's talk", ...fields }), anonymous);

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let answers: number[] = [];
beforeAll(async () => {
  receiver = await startWebhookReceiver(() => ({ status: answers.shift() ?? 200 }));
});
afterAll(() => receiver.close());

/** The deliveries this test's receiver got for one project (tests share the receiver, never a project). */
function receivedFor(projectId: string) {
  return receiver.received.filter((webhook) => (JSON.parse(webhook.body) as WebhookPayload).project.id === projectId);
}

describeEachDialect("webhooks", (getDb) => {
  it("POSTs each new intro, subscription and signal once, signed over timestamp.body, with visitor text intact in the JSON", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const expo = await createQrCode(db, project.ownerId, project.id, { label: "Booth", eventTag: "Expo" });
    const { secret } = await addWebhookEndpoint(db, project.ownerId, project.id, { url: receiver.url }, LOCAL_RECEIVERS);
    expect(secret).toMatch(/^whsec_/);

    const tricky = 'Ada "The Count" <script>alert(1)</script>\nLovelace';
    await intro(db, project.id, { name: "Ada", email: "Ada@Example.com", note: tricky, roleTags: ["Angel"] });
    await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { consent: "on", name: "Ada", email: "ada@example.com" }), anonymous);
    // Bo came through the Expo code: the door recorded that page load first.
    await recordScans(db, [{ projectId: project.id, qrCodeId: expo.id, viewerFingerprint: "bo-viewer" }]);
    await recordSignal(
      db,
      testMailLinks,
      project.id,
      parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Bo", email: "bo@example.com", message: "}{\"injected\": true", showName: "" }),
      { userId: null, identity: { viewerFingerprint: "bo-viewer", addressHash: null } },
    );
    const lead = await db.selectFrom("leads").select("id").where("email", "=", "ada@example.com").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    await updateLeadTriage(db, project.ownerId, project.id, { leadId: lead.id, status: "meeting", note: "PRIVATE-NOTE-456" });

    const worker = new WebhookWorker(db, LOCAL_RECEIVERS, logger, testMailLinks);
    expect(await worker.runOnce()).toBe(3);
    expect(await worker.runOnce()).toBe(0);
    const mine = receivedFor(project.id);
    expect(mine).toHaveLength(3);
    for (const webhook of mine) {
      expect(hasValidSignature(webhook, secret)).toBe(true);
      expect(hasValidSignature(webhook, `${secret}x`)).toBe(false);
      expect(webhook.headers["content-type"]).toBe("application/json");
      expect(Math.abs(Number(webhook.headers["x-pitchqr-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
      expect(webhook.body).not.toContain("PRIVATE-NOTE-456");
      // The Standard Webhooks headers check out with a stock verifier given the same secret, and name the delivery.
      expect(webhook.headers["webhook-id"]).toBe(webhook.headers["x-pitchqr-delivery"]);
      expect(webhook.headers["webhook-timestamp"]).toBe(webhook.headers["x-pitchqr-timestamp"]);
      expect(new Webhook(secret).verify(webhook.body, webhook.headers as Record<string, string>)).toEqual(JSON.parse(webhook.body));
      expect(() => new Webhook(secret).verify(`${webhook.body} `, webhook.headers as Record<string, string>)).toThrow();
    }
    // Receivers get no ordering promise (retries reorder deliveries anyway): compare in a fixed order.
    const ORDER = ["lead.intro", "lead.subscription", "lead.signal"];
    const payloads = mine.map((webhook) => JSON.parse(webhook.body) as WebhookPayload).sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type));
    expect(payloads.map((payload) => [payload.type, payload.lead.email, payload.sourceEvent])).toEqual([
      ["lead.intro", "ada@example.com", "unknown"],
      ["lead.subscription", "ada@example.com", "unknown"],
      ["lead.signal", "bo@example.com", "Booth · Expo"],
    ]);
    expect(payloads[0]).toMatchObject({
      project: { id: project.id, title: "Harbor Cold Chain", slug: project.slug },
      // The page shows no deck: nothing read to carry.
      lead: { id: lead.id, name: "Ada", deck: null },
      action: { kind: "intro", roleTags: ["Angel"], note: tricky },
    });
    expect(payloads[2]!.action).toEqual({ kind: "signal", tier: "Angel", rangeMin: 5_000, rangeMax: 25_000, message: '}{"injected": true', public: false, messagePublic: false, answer: null });
    expect(new Set(payloads.map((payload) => payload.id)).size).toBe(3);
    expect(mine[0]!.headers["x-pitchqr-signature"]).toBe(signWebhook(secret, Number(mine[0]!.headers["x-pitchqr-timestamp"]), mine[0]!.body));

    const [endpoint] = await listWebhookEndpoints(db, project.ownerId, project.id);
    expect(endpoint!.deliveries.map((delivery) => [delivery.eventType, delivery.status, delivery.responseStatus]).sort()).toEqual([
      ["lead.intro", "sent", 200],
      ["lead.signal", "sent", 200],
      ["lead.subscription", "sent", 200],
    ]);
    expect(JSON.stringify(endpoint)).not.toContain(secret);
  });

  it("retries after a 500 with backoff, then delivers once", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const { secret } = await addWebhookEndpoint(db, project.ownerId, project.id, { url: receiver.url }, LOCAL_RECEIVERS);
    await intro(db, project.id, { name: "Ada", email: "ada@example.com" });
    let now = new Date(Date.now() + 1_000);
    const worker = new WebhookWorker(db, LOCAL_RECEIVERS, logger, testMailLinks, { clock: () => now });
    answers = [500];
    expect(await worker.runOnce()).toBe(0);
    let [delivery] = (await listWebhookEndpoints(db, project.ownerId, project.id))[0]!.deliveries;
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, responseStatus: 500, lastError: "answered 500" });
    expect(Date.parse(delivery!.nextAttemptAt) - now.getTime()).toBe(30_000);

    now = new Date(now.getTime() + 10_000);
    expect(await worker.runOnce()).toBe(0);
    now = new Date(now.getTime() + 21_000);
    expect(await worker.runOnce()).toBe(1);
    [delivery] = (await listWebhookEndpoints(db, project.ownerId, project.id))[0]!.deliveries;
    expect(delivery).toMatchObject({ status: "sent", attempts: 2, responseStatus: 200, lastError: null });
    const mine = receivedFor(project.id);
    expect(mine).toHaveLength(2);
    expect(mine[0]!.body).toBe(mine[1]!.body);
    expect(mine.every((webhook) => hasValidSignature(webhook, secret))).toBe(true);
  });

  it("delivers each event exactly once per endpoint with two workers running at the same time", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await addWebhookEndpoint(db, project.ownerId, project.id, { url: receiver.url }, LOCAL_RECEIVERS);
    await addWebhookEndpoint(db, project.ownerId, project.id, { url: `${receiver.url}?second` }, LOCAL_RECEIVERS);
    for (let index = 0; index < 15; index += 1) await intro(db, project.id, { name: `Visitor ${index}`, email: `v${index}@example.com` });
    const first = new WebhookWorker(db, LOCAL_RECEIVERS, logger, testMailLinks);
    const second = new WebhookWorker(db, LOCAL_RECEIVERS, logger, testMailLinks);
    const [a, b] = await Promise.all([first.runOnce(), second.runOnce()]);
    expect(a + b).toBe(30);
    const mine = receivedFor(project.id);
    expect(mine).toHaveLength(30);
    const perEndpointAndEvent = new Set(mine.map((webhook) => `${webhook.headers["x-pitchqr-delivery"]}`));
    expect(perEndpointAndEvent.size).toBe(30);
    const events = new Set(mine.map((webhook) => (JSON.parse(webhook.body) as WebhookPayload).id));
    expect(events.size).toBe(15);
    const pending = await db.selectFrom("webhook_deliveries").select("id").where("project_id", "=", project.id).where("status", "!=", "sent").execute();
    expect(pending).toEqual([]);
  });

  it("keeps delivering to a healthy endpoint while another founder's five endpoints hang: each hanging one holds up only its own queue", async () => {
    const { db } = getDb();
    const slow = await createProject(db);
    const fine = await createProject(db);
    const hanging = await startWebhookReceiver(() => "hang");
    const healthy = await startWebhookReceiver();
    const worker = new WebhookWorker(db, LOCAL_RECEIVERS, logger, testMailLinks);
    try {
      for (let n = 0; n < 5; n += 1) await addWebhookEndpoint(db, slow.ownerId, slow.id, { url: `${hanging.url}?n=${n}` }, LOCAL_RECEIVERS);
      await addWebhookEndpoint(db, fine.ownerId, fine.id, { url: healthy.url }, LOCAL_RECEIVERS);
      // The slow founder's visitors came first, so their 15 deliveries are due before the healthy endpoint's 5.
      for (let index = 0; index < 3; index += 1) await intro(db, slow.id, { name: `Slow ${index}`, email: `slow${index}@example.com` });
      for (let index = 0; index < 5; index += 1) await intro(db, fine.id, { name: `Fine ${index}`, email: `fine${index}@example.com` });

      const pass = worker.runOnce();
      await hanging.waitFor(5);
      await healthy.waitFor(5);
      // All five arrived while each hanging endpoint still holds its first request, unanswered: nobody waited for
      // a hanging endpoint's deadline, and no hanging endpoint got a second request in the meantime.
      expect(hanging.open).toBe(5);
      expect(hanging.received).toHaveLength(5);
      expect(new Set(hanging.received.map((webhook) => webhook.headers["x-pitchqr-delivery"])).size).toBe(5);

      // A visitor acting now is delivered during the same pass, still ahead of the hanging ones.
      await intro(db, fine.id, { name: "Late", email: "late@example.com" });
      worker.wake();
      await healthy.waitFor(6);
      expect(hanging.open).toBe(5);

      await hanging.close();
      await pass;
      const rows = await db
        .selectFrom("webhook_deliveries")
        .select(["project_id", "status", "attempts"])
        .where("project_id", "in", [slow.id, fine.id])
        .execute();
      expect(rows.filter((row) => row.project_id === fine.id).map((row) => row.status)).toEqual(Array(6).fill("sent"));
      // The hanging endpoints' deliveries wait for a retry; none was marked sent. After its failed attempt each endpoint
      // is held off until that retry, so its two other deliveries were not tried against it meanwhile.
      const slowRows = rows.filter((row) => row.project_id === slow.id);
      expect(slowRows.map((row) => row.status)).toEqual(Array(15).fill("pending"));
      expect(slowRows.map((row) => Number(row.attempts)).sort()).toEqual([...Array(10).fill(0), ...Array(5).fill(1)]);
      expect(new Set(healthy.received.map((webhook) => webhook.headers["x-pitchqr-delivery"])).size).toBe(6);
    } finally {
      await hanging.close();
      await healthy.close();
      await worker.stop();
    }
  });

  it("leaves a delivery another worker holds until that claim's lease has passed, then delivers it once", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await addWebhookEndpoint(db, project.ownerId, project.id, { url: receiver.url }, LOCAL_RECEIVERS);
    await intro(db, project.id, { name: "Held", email: "held@example.com" });
    const now = new Date(Date.now() + 1_000);
    // Another instance claimed it and began its POST, outcome unknown.
    await db
      .updateTable("webhook_deliveries")
      .set({ claimed_by: "webhooks:elsewhere", locked_until: new Date(now.getTime() + 60_000).toISOString(), attempt_started_at: now.toISOString(), attempts: 1 })
      .where("project_id", "=", project.id)
      .execute();
    let clock = now;
    const worker = new WebhookWorker(db, LOCAL_RECEIVERS, logger, testMailLinks, { clock: () => clock, owner: "webhooks:here" });
    expect(await worker.runOnce()).toBe(0);
    expect(receivedFor(project.id)).toHaveLength(0);
    clock = new Date(now.getTime() + 61_000);
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    expect(receivedFor(project.id)).toHaveLength(1);
    expect(await db.selectFrom("webhook_deliveries").select(["status", "claimed_by", "attempts"]).where("project_id", "=", project.id).execute()).toEqual([
      { status: "sent", claimed_by: "webhooks:here", attempts: 2 },
    ]);
  });

  it("refuses URLs that are not https or point inside the network, before connecting, and stores nothing", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const refused: [string, string][] = [
      ["https://127.0.0.1/hook", INTERNAL_TARGET_MESSAGE],
      ["https://10.1.2.3/hook", INTERNAL_TARGET_MESSAGE],
      ["https://169.254.169.254/latest/meta-data", INTERNAL_TARGET_MESSAGE],
      ["https://[::1]/hook", INTERNAL_TARGET_MESSAGE],
      ["https://[::ffff:127.0.0.1]/hook", INTERNAL_TARGET_MESSAGE],
      // IPv6 forms that carry an IPv4 address: compatible, translated, NAT64.
      ["https://[::127.0.0.1]/hook", INTERNAL_TARGET_MESSAGE],
      ["https://[::ffff:0:127.0.0.1]/hook", INTERNAL_TARGET_MESSAGE],
      ["https://[::10.0.0.1]/hook", INTERNAL_TARGET_MESSAGE],
      ["https://[::ffff:0:a9fe:a9fe]/latest/meta-data", INTERNAL_TARGET_MESSAGE],
      ["https://[64:ff9b::169.254.169.254]/latest/meta-data", INTERNAL_TARGET_MESSAGE],
      ["https://[64:ff9b::c0a8:101]/hook", INTERNAL_TARGET_MESSAGE],
      ["https://[fe80::1]/hook", INTERNAL_TARGET_MESSAGE],
      ["https://0.0.0.0/hook", INTERNAL_TARGET_MESSAGE],
      ["https://localhost/hook", INTERNAL_TARGET_MESSAGE],
      ["http://hooks.example.com/hook", HTTPS_REQUIRED_MESSAGE],
      ["ftp://hooks.example.com/hook", HTTPS_REQUIRED_MESSAGE],
    ];
    for (const [url, message] of refused) {
      const error = await addWebhookEndpoint(db, project.ownerId, project.id, { url }, PUBLIC_ONLY).catch((e: unknown) => e);
      expect(error, url).toMatchObject({ code: "invalid_input", message, fieldErrors: { url: message } });
    }
    // A public name whose DNS answers include a private address is refused too (one bad answer is enough).
    const mixed = async () => [{ address: "93.184.216.34", family: 4 }, { address: "10.0.0.7", family: 4 }];
    await expect(addWebhookEndpoint(db, project.ownerId, project.id, { url: "https://mixed.example/hook" }, PUBLIC_ONLY, mixed)).rejects.toMatchObject({
      message: INTERNAL_TARGET_MESSAGE,
    });
    expect(await db.selectFrom("webhook_endpoints").select("id").where("project_id", "=", project.id).execute()).toEqual([]);
    expect(isPublicAddress("93.184.216.34")).toBe(true);
    expect(isPublicAddress("2606:4700:4700::1111")).toBe(true);
    // Resolved answers in those forms are judged by their IPv4 address too; NAT64 reaches public IPv4 hosts.
    for (const address of ["::7f00:1", "::ffff:0:7f00:1", "::ffff:0:10.0.0.1", "64:ff9b::7f00:1", "::ffff:a00:1"]) expect(isPublicAddress(address), address).toBe(false);
    expect(isPublicAddress("64:ff9b::5db8:d822")).toBe(true);
  });

  it("checks the address again at delivery and connects only to it: a name that now resolves inside is given up unsent", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    // Added while the name resolved to a public address; by delivery time it resolves to loopback (DNS rebinding).
    let answer = "93.184.216.34";
    const rebinding = async () => [{ address: answer, family: 4 }];
    await addWebhookEndpoint(db, project.ownerId, project.id, { url: `https://rebind.example:${receiver.port}/hook` }, PUBLIC_ONLY, rebinding);
    await intro(db, project.id, { name: "Ada", email: "ada@example.com" });
    answer = "127.0.0.1";
    const before = receiver.received.length;
    const worker = new WebhookWorker(db, PUBLIC_ONLY, logger, testMailLinks, { resolve: rebinding });
    expect(await worker.runOnce()).toBe(0);
    expect(receiver.received.length).toBe(before);
    const [delivery] = (await listWebhookEndpoints(db, project.ownerId, project.id))[0]!.deliveries;
    expect(delivery).toMatchObject({ status: "failed", attempts: 1, responseStatus: null, lastError: INTERNAL_TARGET_MESSAGE });
  });

  it("never follows a redirect, so a receiver cannot send the request on to a loopback address", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const inside = await startWebhookReceiver();
    const redirecting = await startWebhookReceiver(() => ({ status: 307, headers: { location: inside.url } }));
    try {
      await addWebhookEndpoint(db, project.ownerId, project.id, { url: redirecting.url }, LOCAL_RECEIVERS);
      await intro(db, project.id, { name: "Ada", email: "ada@example.com" });
      const worker = new WebhookWorker(db, LOCAL_RECEIVERS, logger, testMailLinks);
      expect(await worker.runOnce()).toBe(0);
      expect(redirecting.received).toHaveLength(1);
      expect(inside.received).toHaveLength(0);
      const [delivery] = (await listWebhookEndpoints(db, project.ownerId, project.id))[0]!.deliveries;
      expect(delivery).toMatchObject({ status: "pending", responseStatus: 307 });
      expect(delivery!.lastError).toContain("redirects are not followed");
    } finally {
      await inside.close();
      await redirecting.close();
    }
  });

  it("keeps webhook settings owner-only; deleting an endpoint drops its queued deliveries", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const intruder = await createUser(db);
    await expect(addWebhookEndpoint(db, intruder, project.id, { url: receiver.url }, LOCAL_RECEIVERS)).rejects.toMatchObject({ code: "not_found" });
    await expect(listWebhookEndpoints(db, intruder, project.id)).rejects.toMatchObject({ code: "not_found" });
    const { id } = await addWebhookEndpoint(db, project.ownerId, project.id, { url: receiver.url }, LOCAL_RECEIVERS);
    await expect(deleteWebhookEndpoint(db, intruder, project.id, id)).rejects.toMatchObject({ code: "not_found" });
    const other = await createProject(db);
    await expect(deleteWebhookEndpoint(db, other.ownerId, other.id, id)).rejects.toMatchObject({ code: "not_found" });
    await intro(db, project.id, { name: "Ada", email: "ada@example.com" });
    await deleteWebhookEndpoint(db, project.ownerId, project.id, id);
    expect(await db.selectFrom("webhook_deliveries").select("id").where("project_id", "=", project.id).execute()).toEqual([]);
  });

  it("sends a test event to one endpoint on request and says what it answered, tried once; owner-only", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const { id, secret } = await addWebhookEndpoint(db, project.ownerId, project.id, { url: receiver.url }, LOCAL_RECEIVERS);
    const worker = new WebhookWorker(db, LOCAL_RECEIVERS, logger, testMailLinks);
    const wake = () => void worker.runOnce();

    expect(await sendWebhookTestEvent(db, project.ownerId, project.id, id, wake)).toEqual({ delivered: true, detail: "Your endpoint answered 200" });
    const [test] = receivedFor(project.id);
    expect(JSON.parse(test!.body)).toMatchObject({ type: "webhook.test", test: true, project: { id: project.id, title: "Harbor Cold Chain" } });
    expect(test!.headers["x-pitchqr-event"]).toBe("webhook.test");
    expect(new Webhook(secret).verify(test!.body, test!.headers as Record<string, string>)).toMatchObject({ type: "webhook.test" });

    // A refusing endpoint: the founder hears it at once, and the test is not retried behind their back.
    answers = [503];
    expect(await sendWebhookTestEvent(db, project.ownerId, project.id, id, wake)).toEqual({ delivered: false, detail: "Not delivered: answered 503" });
    const [latest] = (await listWebhookEndpoints(db, project.ownerId, project.id))[0]!.deliveries;
    expect(latest).toMatchObject({ eventType: "webhook.test", status: "failed", attempts: 1, responseStatus: 503 });

    const intruder = await createUser(db);
    await expect(sendWebhookTestEvent(db, intruder, project.id, id, wake)).rejects.toMatchObject({ code: "not_found" });
    const other = await createProject(db);
    await expect(sendWebhookTestEvent(db, other.ownerId, other.id, id, wake)).rejects.toMatchObject({ code: "not_found" });
    expect(receivedFor(project.id)).toHaveLength(2);
  });

  it("pauses an endpoint that failed for three days, tells its founder once, keeps new events for it, and sends them on resume", async () => {
    const { db } = getDb();
    const founderEmail = `founder-${crypto.randomUUID()}@example.com`;
    const project = await createProject(db, { ownerId: await createUser(db, { email: founderEmail }) });
    const { id } = await addWebhookEndpoint(db, project.ownerId, project.id, { url: receiver.url }, LOCAL_RECEIVERS);
    const start = Date.now() + 1_000;
    let now = new Date(start);
    const worker = new WebhookWorker(db, LOCAL_RECEIVERS, logger, testMailLinks, { clock: () => now });
    const endpoint = async () => (await listWebhookEndpoints(db, project.ownerId, project.id))[0]!;
    const pausedMail = () => db.selectFrom("mail_outbox").select(["recipient", "subject", "text_body"]).where("kind", "=", "webhook-paused").where("recipient", "=", founderEmail).execute();

    // Failing for two days, then one success: the clock starts again.
    answers = [500];
    await intro(db, project.id, { name: "Ada", email: "ada@example.com" });
    expect(await worker.runOnce()).toBe(0);
    expect(await endpoint()).toMatchObject({ failingSince: new Date(start).toISOString(), pausedAt: null });
    now = new Date(start + 2 * 24 * 3_600_000);
    expect(await worker.runOnce()).toBe(1);
    expect((await endpoint()).failingSince).toBeNull();

    // Then failing from day 2 to day 5: paused at the first failure three days on, with one e-mail to the founder.
    const failingFrom = now;
    answers = Array.from({ length: 40 }, () => 500);
    await intro(db, project.id, { name: "Bo", email: "bo@example.com" });
    await worker.runOnce();
    now = new Date(failingFrom.getTime() + WEBHOOK_PAUSE_AFTER_MS - 60_000);
    await intro(db, project.id, { name: "Cy", email: "cy@example.com" });
    await worker.runOnce();
    expect((await endpoint()).pausedAt).toBeNull();
    now = new Date(failingFrom.getTime() + WEBHOOK_PAUSE_AFTER_MS);
    await worker.runOnce();
    expect(await endpoint()).toMatchObject({ failingSince: failingFrom.toISOString(), pausedAt: now.toISOString() });
    const mails = await pausedMail();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Webhook paused for Harbor Cold Chain");
    expect(mails[0]!.text_body).toContain(receiver.url);
    expect(mails[0]!.text_body).toContain(`${TEST_PUBLIC_URL}/project/${project.id}/leads/settings`);

    // Paused: nothing is posted, a new event waits, a test is refused, and no second e-mail goes out.
    const postsBefore = receivedFor(project.id).length;
    await intro(db, project.id, { name: "Di", email: "di@example.com" });
    now = new Date(now.getTime() + 24 * 3_600_000);
    expect(await worker.runOnce()).toBe(0);
    expect(receivedFor(project.id)).toHaveLength(postsBefore);
    await expect(sendWebhookTestEvent(db, project.ownerId, project.id, id, () => undefined)).rejects.toMatchObject({ code: "conflict", message: WEBHOOK_PAUSED_TEST_MESSAGE });
    expect(await pausedMail()).toHaveLength(1);

    // Resumed once the endpoint answers again: what waited goes out, each event once.
    answers = [];
    await expect(resumeWebhookEndpoint(db, await createUser(db), project.id, id, now)).rejects.toMatchObject({ code: "not_found" });
    await resumeWebhookEndpoint(db, project.ownerId, project.id, id, now);
    expect(await endpoint()).toMatchObject({ failingSince: null, pausedAt: null });
    while ((await worker.runOnce()) > 0);
    const delivered = receivedFor(project.id)
      .slice(postsBefore)
      .map((webhook) => (JSON.parse(webhook.body) as WebhookPayload).lead.name);
    expect(delivered.sort()).toEqual(["Bo", "Cy", "Di"]);
  });
});
