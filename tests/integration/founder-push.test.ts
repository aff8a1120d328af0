import { afterAll, beforeAll, expect, it } from "vitest";
import { submitIntro, subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { DomainError } from "~/modules/errors.server";
import {
  PUSH_ENDPOINT_REFUSED_MESSAGE,
  PUSH_SUBSCRIPTION_MESSAGE,
  pushSubscriptionSchema,
  SLACK_URL_MESSAGE,
  slackUrlSchema,
} from "~/modules/founder-alerts/alert-channel-form";
import { AlertWorker, slackBodyOf } from "~/modules/founder-alerts/alert-delivery.server";
import {
  addPushSubscription,
  getAlertChannelSettings,
  listPushDevices,
  removePushSubscription,
  removeSlackUrl,
  saveAlertChannels,
  saveSlackUrl,
  type AlertMessage,
} from "~/modules/founder-alerts/founder-alerts.server";
import { KNOWN_PUSH_SERVICES } from "~/modules/founder-alerts/push-services";
import { validate } from "~/modules/forms/validation";
import { createLogger } from "~/modules/logging/logger.server";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { recordScans } from "~/modules/scans/scans.server";
import { signalSchema } from "~/modules/signals/signal-form";
import { recordSignal } from "~/modules/signals/signals.server";
import { INTERNAL_TARGET_MESSAGE } from "~/modules/webhooks/webhook-target.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";
import { browserSubscription, hasValidVapid, startTestPushService, testAlertSettings } from "../support/push-service";

type Db = TestDatabase["db"];
const logger = createLogger("silent");

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

let pushService: Awaited<ReturnType<typeof startTestPushService>>;
/** Paths the push service answers 410 Gone for: devices whose subscription expired. */
const gone = new Set<string>();
beforeAll(async () => {
  pushService = await startTestPushService((push) => (gone.has(push.path) ? 410 : 201));
});
afterAll(() => pushService.close());

const services = () => [...KNOWN_PUSH_SERVICES, pushService.service];

/** A device of `userId` with notifications on (from the settings of one of their projects), on the test's push service. */
async function device(db: Db, userId: string, name = "Test phone") {
  const subscription = browserSubscription(pushService.origin, name);
  const project = await createProject(db, { ownerId: userId, title: "Where the device was turned on" });
  await addPushSubscription(db, userId, project.id, parse(pushSubscriptionSchema, subscription.input), services());
  return subscription;
}

/** Ana, through the project's "Demo Day hall A" code (the door counted her page load first). */
async function anaThroughTheCode(db: Db, projectId: string, ownerId: string) {
  const code = await createQrCode(db, ownerId, projectId, { label: "Demo Day hall A", eventTag: null });
  const viewer = `ana-${crypto.randomUUID()}`;
  await recordScans(db, [{ projectId, qrCodeId: code.id, viewerFingerprint: viewer }]);
  return { userId: null, identity: { viewerFingerprint: viewer, addressHash: null } };
}

async function leadIdOf(db: Db, projectId: string, email: string) {
  return (await db.selectFrom("leads").select("id").where("project_id", "=", projectId).where("email", "=", email).executeTakeFirstOrThrow()).id;
}

type Pushed = { title: string; body: string; url: string; tag: string };

describeEachDialect("push where the founder looks", (getDb) => {
  it("pushes an intro to each of the owner's devices, encrypted for it (aes128gcm) and signed with VAPID, once; the test decrypts it", async () => {
    const { db } = getDb();
    const project = await createProject(db, { title: "Harbor Cold Chain" });
    const phone = await device(db, project.ownerId, "Phone");
    const laptop = await device(db, project.ownerId, "Laptop");
    const stranger = await device(db, await createUser(db), "Someone else's phone");
    const visitor = await anaThroughTheCode(db, project.id, project.ownerId);

    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ana Kovač", email: "ana@example.com", note: "Cold chain in Kenya" }), visitor);
    const leadId = await leadIdOf(db, project.id, "ana@example.com");
    const settings = testAlertSettings([pushService.service]);
    const worker = new AlertWorker(db, settings, logger);
    expect(await worker.runOnce()).toBe(2);
    expect(await worker.runOnce()).toBe(0);

    for (const subscription of [phone, laptop]) {
      const pushes = pushService.received.filter((push) => push.path === subscription.path);
      expect(pushes).toHaveLength(1);
      const push = pushes[0]!;
      expect(push.headers["content-encoding"]).toBe("aes128gcm");
      expect(Number(push.headers.ttl)).toBeGreaterThan(0);
      expect(hasValidVapid(push, settings.push.vapid.publicKey, pushService.origin)).toBe(true);
      const message = JSON.parse(subscription.decrypt(push.body)) as Pushed;
      expect(message.title).toBe("Ana Kovač requested an intro — Demo Day hall A");
      expect(message.body).toBe("Harbor Cold Chain");
      expect(message.url).toBe(`https://pitch.example/project/${project.id}/leads?lead=${leadId}`);
    }
    expect(pushService.received.some((push) => push.path === stranger.path)).toBe(false);
    const rows = await db.selectFrom("alert_deliveries").select(["status", "attempts"]).where("project_id", "=", project.id).execute();
    expect(rows.map((row) => [row.status, Number(row.attempts)])).toEqual([
      ["sent", 1],
      ["sent", 1],
    ]);
  });

  it("pushes per project and per kind as the founder chose: intro off, signals and new followers on", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db, { ownerId: project.ownerId, title: "Other project" });
    const phone = await device(db, project.ownerId);
    await saveAlertChannels(db, project.ownerId, project.id, { pushIntro: false, pushSignal: true, pushFollow: true, pushReading: true, slackIntro: true, slackSignal: true, slackFollow: true, slackReading: true });
    expect((await getAlertChannelSettings(db, project.ownerId, project.id)).channels.pushIntro).toBe(false);
    expect((await getAlertChannelSettings(db, project.ownerId, other.id)).channels.pushIntro).toBe(true);

    const anonymous = { userId: null };
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ana Kovač", email: "ana@example.com", note: "Hi" }), anonymous);
    await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Bo Lind", email: "bo@example.com", showName: "" }), anonymous);
    await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { consent: "on", name: "Cy Ode", email: "cy@example.com" }), anonymous);
    await submitIntro(db, testMailLinks, other.id, parse(introSchema, { name: "Di Rak", email: "di@example.com", note: "Hi" }), anonymous);

    expect(await new AlertWorker(db, testAlertSettings([pushService.service]), logger).runOnce()).toBe(3);
    const titles = pushService.received.filter((push) => push.path === phone.path).map((push) => (JSON.parse(phone.decrypt(push.body)) as Pushed).title);
    expect(titles.sort()).toEqual(["Bo Lind sent a signal of interest", "Cy Ode now follows your updates", "Di Rak requested an intro"]);
  });

  it("pushes each event once to each device with two workers running at the same time", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const phones = [await device(db, project.ownerId, "Phone"), await device(db, project.ownerId, "Tablet")];
    for (const index of [1, 2, 3]) {
      await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: `Visitor ${index}`, email: `v${index}@example.com`, note: "Hi" }), { userId: null });
    }
    const settings = testAlertSettings([pushService.service]);
    const counts = await Promise.all([new AlertWorker(db, settings, logger).runOnce(), new AlertWorker(db, settings, logger).runOnce()]);
    expect(counts[0] + counts[1]).toBe(6);
    for (const phone of phones) {
      const titles = pushService.received.filter((push) => push.path === phone.path).map((push) => (JSON.parse(phone.decrypt(push.body)) as Pushed).title);
      expect(titles.sort()).toEqual(["Visitor 1 requested an intro", "Visitor 2 requested an intro", "Visitor 3 requested an intro"]);
    }
  });

  it("removes a device whose push service answers 410 Gone, and keeps pushing to the others", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const expired = await device(db, project.ownerId, "Old phone");
    const current = await device(db, project.ownerId, "New phone");
    gone.add(expired.path);
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ana Kovač", email: "ana@example.com", note: "Hi" }), { userId: null });

    expect(await new AlertWorker(db, testAlertSettings([pushService.service]), logger).runOnce()).toBe(1);
    expect(pushService.received.filter((push) => push.path === expired.path)).toHaveLength(1);
    expect((await listPushDevices(db, project.ownerId)).map((row) => row.device)).toEqual(["New phone"]);
    expect(await db.selectFrom("alert_deliveries").select("status").where("project_id", "=", project.id).execute()).toEqual([{ status: "sent" }]);
    expect(pushService.received.filter((push) => push.path === current.path)).toHaveLength(1);
  });

  it("turning notifications off on one device removes only that device's subscription", async () => {
    const { db } = getDb();
    const founder = await createUser(db);
    const phone = await device(db, founder, "Phone");
    await device(db, founder, "Laptop");
    const project = await createProject(db, { ownerId: founder });
    const someoneElse = await createProject(db);
    expect(await removePushSubscription(db, someoneElse.ownerId, someoneElse.id, phone.input.endpoint)).toBe(false);
    await expect(removePushSubscription(db, someoneElse.ownerId, project.id, phone.input.endpoint)).rejects.toMatchObject({ code: "not_found" });
    await expect(addPushSubscription(db, someoneElse.ownerId, project.id, parse(pushSubscriptionSchema, phone.input), services())).rejects.toMatchObject({ code: "not_found" });
    expect(await removePushSubscription(db, founder, project.id, phone.input.endpoint)).toBe(true);
    expect((await listPushDevices(db, founder)).map((row) => row.device)).toEqual(["Laptop"]);
  });

  it("refuses a subscription with a foreign or malformed endpoint or keys: a clear message, nothing stored", async () => {
    const { db } = getDb();
    const { ownerId: founder, id: projectId } = await createProject(db);
    const good = browserSubscription(pushService.origin).input;
    for (const endpoint of [
      "https://evil.example/push/1",
      "https://fcm.googleapis.com.evil.example/fcm/send/1",
      "https://user:pass@fcm.googleapis.com/fcm/send/1",
      "http://fcm.googleapis.com/fcm/send/1",
      "not a url at all",
      good.endpoint,
    ]) {
      const refused = addPushSubscription(db, founder, projectId, parse(pushSubscriptionSchema, { ...good, endpoint }), KNOWN_PUSH_SERVICES);
      await expect(refused).rejects.toThrow(DomainError);
      await expect(refused).rejects.toThrow(PUSH_ENDPOINT_REFUSED_MESSAGE);
    }
    for (const bad of [{ p256dh: "short" }, { auth: "!!!!!!!!!!!!!!!!!!!!!!" }, { endpoint: "" }]) {
      const checked = validate(pushSubscriptionSchema, { ...good, ...bad });
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.formError).toBe(PUSH_SUBSCRIPTION_MESSAGE);
    }
    await addPushSubscription(db, founder, projectId, parse(pushSubscriptionSchema, { ...good, endpoint: "https://fcm.googleapis.com/fcm/send/abc:def" }), KNOWN_PUSH_SERVICES);
    await addPushSubscription(db, founder, projectId, parse(pushSubscriptionSchema, { ...good, endpoint: "https://wns2-par02p.notify.windows.com/w/?token=abc" }), KNOWN_PUSH_SERVICES);
    expect(await listPushDevices(db, founder)).toHaveLength(2);
  });

  it("posts to Slack only at a hooks.slack.com URL that resolves to public addresses; another founder's project is not found", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    for (const slackUrl of ["https://hooks.slack.com.evil.example/services/T000/B000/XXXX", "http://hooks.slack.com/services/T000/B000/XXXX", "https://example.com/hook"]) {
      const checked = validate(slackUrlSchema, { slackUrl });
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.fieldErrors.slackUrl).toBe(SLACK_URL_MESSAGE);
    }
    const slackUrl = "https://hooks.slack.com/services/T000/B000/XXXXXXXX";
    const privateDns = async () => [{ address: "10.0.0.7", family: 4 }];
    await expect(saveSlackUrl(db, project.ownerId, project.id, { slackUrl }, { allowPrivateTargets: false }, privateDns)).rejects.toThrow(INTERNAL_TARGET_MESSAGE);
    expect((await getAlertChannelSettings(db, project.ownerId, project.id)).slackUrl).toBeNull();

    const stranger = await createUser(db);
    const publicDns = async () => [{ address: "34.200.1.1", family: 4 }];
    await expect(saveSlackUrl(db, stranger, project.id, { slackUrl }, { allowPrivateTargets: false }, publicDns)).rejects.toMatchObject({ code: "not_found" });
    await expect(getAlertChannelSettings(db, stranger, project.id)).rejects.toMatchObject({ code: "not_found" });

    await saveSlackUrl(db, project.ownerId, project.id, { slackUrl }, { allowPrivateTargets: false }, publicDns);
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ana <!channel> Kovač", email: "ana@example.com", note: "Hi" }), { userId: null });
    const queued = await db.selectFrom("alert_deliveries").select(["channel", "slack_url", "payload"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(queued).toMatchObject({ channel: "slack", slack_url: slackUrl });
    // Slack's own text format: the visitor's name cannot mention a channel or make a link.
    const leadId = await leadIdOf(db, project.id, "ana@example.com");
    expect(JSON.parse(slackBodyOf(JSON.parse(queued.payload) as AlertMessage, "https://pitch.example"))).toEqual({
      text: `Ana &lt;!channel&gt; Kovač requested an intro (Harbor Cold Chain)\n<https://pitch.example/project/${project.id}/leads?lead=${leadId}|Open the lead>`,
    });

    // Its host now resolves inside the network: the post is given up, nothing sent.
    const worker = new AlertWorker(db, testAlertSettings(), logger, { resolve: privateDns });
    expect(await worker.runOnce()).toBe(0);
    const settled = await db.selectFrom("alert_deliveries").select(["status", "last_error"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(settled).toEqual({ status: "failed", last_error: INTERNAL_TARGET_MESSAGE });

    await removeSlackUrl(db, project.ownerId, project.id);
    expect((await getAlertChannelSettings(db, project.ownerId, project.id)).slackUrl).toBeNull();
  });
});
