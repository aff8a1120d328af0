import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { pushSubscriptionSchema } from "~/modules/founder-alerts/alert-channel-form";
import { AlertWorker, pushTopicOf } from "~/modules/founder-alerts/alert-delivery.server";
import { addPushSubscription, removePushSubscription, removeSlackUrl, saveSlackUrl } from "~/modules/founder-alerts/founder-alerts.server";
import { KNOWN_PUSH_SERVICES } from "~/modules/founder-alerts/push-services";
import { validate } from "~/modules/forms/validation";
import { createLogger } from "~/modules/logging/logger.server";
import { postWebhook } from "~/modules/webhooks/webhook-delivery.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, testMailLinks } from "../support/fixtures";
import { browserSubscription, startTestPushService, testAlertSettings } from "../support/push-service";

type Db = TestDatabase["db"];
const logger = createLogger("silent");
const LOCAL = { allowPrivateTargets: true };

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

/** Devices whose pushes are never answered. */
const hangs = new Set<string>();
/** What the push service answers a device's pushes, in turn, before 201. */
const scripts = new Map<string, number[]>();
let pushService: Awaited<ReturnType<typeof startTestPushService>>;
beforeAll(async () => {
  pushService = await startTestPushService((push) => (hangs.has(push.path) ? "hang" : (scripts.get(push.path)?.shift() ?? 201)));
});
afterAll(() => pushService.close());

/**
 * A Slack of the test's own that hangs: hooks.slack.com resolves to a loopback address of its own, port 443, where
 * a server accepts each connection and never says a word (the TLS handshake never ends).
 */
async function startHangingSlack() {
  const address = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(443, address, resolve));
  return {
    resolve: async (hostname: string) => (hostname === "hooks.slack.com" ? [{ address, family: 4 }] : []),
    get connections() {
      return connections;
    },
    get open() {
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function device(db: Db, ownerId: string, projectId: string) {
  const subscription = browserSubscription(pushService.origin);
  await addPushSubscription(db, ownerId, projectId, parse(pushSubscriptionSchema, subscription.input), [...KNOWN_PUSH_SERVICES, pushService.service]);
  return subscription;
}

const intro = (db: Db, projectId: string, name: string) =>
  submitIntro(db, testMailLinks, projectId, parse(introSchema, { name, email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`, note: "Hi" }), { userId: null });

/** Resolves once `condition` holds, checked on every turn of the event loop. */
async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 8_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describeEachDialect("founder alert delivery", (getDb) => {
  it("delivers another founder's push while one founder's Slack URL and push endpoint hang, without waiting for them", async () => {
    const { db } = getDb();
    const slowProject = await createProject(db, { title: "Slow neighbour" });
    const fineProject = await createProject(db, { title: "Fine founder" });
    const slack = await startHangingSlack();
    const worker = new AlertWorker(db, testAlertSettings([pushService.service], LOCAL), logger, { resolve: slack.resolve });
    try {
      await saveSlackUrl(db, slowProject.ownerId, slowProject.id, { slackUrl: "https://hooks.slack.com/services/T000/B000/SLOWSLOW" }, LOCAL, slack.resolve);
      const slowPhone = await device(db, slowProject.ownerId, slowProject.id);
      hangs.add(slowPhone.path);
      const finePhone = await device(db, fineProject.ownerId, fineProject.id);
      // The slow founder's visitors came first: their 30 Slack posts and 30 pushes are due before the other's, more
      // than one claim looks at.
      for (let index = 0; index < 30; index += 1) await intro(db, slowProject.id, `Slow Visitor ${index}`);
      await intro(db, fineProject.id, "Fine One");

      const pass = worker.runOnce();
      await until(() => pushService.received.some((push) => push.path === finePhone.path), "the fine founder's push");
      // It arrived while the slow Slack and the slow device each hold their first attempt, unanswered.
      await until(() => slack.open === 1 && pushService.hangingAt(slowPhone.path) === 1, "one attempt at each slow destination");
      expect(slack.connections).toBe(1);
      expect(pushService.received.filter((push) => push.path === slowPhone.path)).toHaveLength(1);

      // A visitor acting now is delivered during the same pass, still ahead of the hanging ones.
      await intro(db, fineProject.id, "Fine Two");
      worker.wake();
      await until(() => pushService.received.filter((push) => push.path === finePhone.path).length === 2, "the fine founder's second push");
      expect(slack.open).toBe(1);
      expect(pushService.hangingAt(slowPhone.path)).toBe(1);
      const statuses = async (projectId: string) =>
        (await db.selectFrom("alert_deliveries").select("status").where("project_id", "=", projectId).execute()).map((row) => row.status);
      await until(async () => (await statuses(fineProject.id)).join() === "sent,sent", "both of the fine founder's pushes settled as sent");
      expect(await statuses(slowProject.id)).toEqual(Array(60).fill("pending"));

      await slack.close();
      await worker.stop();
      await pass.catch(() => undefined);
      // The slow founder's queue goes with the Slack URL and the device, so no other test's worker meets it.
      await removeSlackUrl(db, slowProject.ownerId, slowProject.id);
      await removePushSubscription(db, slowProject.ownerId, slowProject.id, slowPhone.input.endpoint);
    } finally {
      await slack.close();
      await worker.stop();
    }
  });

  it("sends a push again under the same Topic (from its delivery) and the same tag, so the repeat replaces the first", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const phone = await device(db, project.ownerId, project.id);
    scripts.set(phone.path, [500]);
    await intro(db, project.id, "Ana Kovac");
    await intro(db, project.id, "Bo Lind");
    let clock = new Date(Date.now() + 1_000);
    const worker = new AlertWorker(db, testAlertSettings([pushService.service]), logger, { clock: () => clock });
    // The first push is answered 500; the device's other push waits for its retry.
    expect(await worker.runOnce()).toBe(0);
    clock = new Date(clock.getTime() + 10 * 60_000);
    expect(await worker.runOnce()).toBe(2);

    const pushes = pushService.received.filter((push) => push.path === phone.path);
    expect(pushes).toHaveLength(3);
    const deliveries = await db.selectFrom("alert_deliveries").select(["id", "attempts", "status"]).where("project_id", "=", project.id).execute();
    expect(deliveries.map((row) => row.status)).toEqual(["sent", "sent"]);
    const repeated = deliveries.find((row) => Number(row.attempts) === 2)!;
    const topics = pushes.map((push) => String(push.headers.topic));
    const tags = pushes.map((push) => (JSON.parse(phone.decrypt(push.body)) as { tag: string }).tag);
    // The first and the third are one delivery: the same Topic, from its id; the other delivery has its own.
    expect(topics[0]).toBe(pushTopicOf(repeated.id));
    expect(topics[2]).toBe(topics[0]);
    expect(tags[2]).toBe(tags[0]);
    expect(topics[1]).not.toBe(topics[0]);
    expect(topics[0]).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
  });

  it("never posts to Slack again a post a killed holder had handed over; one it had not handed over is posted again", async () => {
    const { db } = getDb();
    const handedOver = await createProject(db);
    const cutOff = await createProject(db);
    const slack = await startHangingSlack();
    const now = new Date(Date.now() + 1_000);
    const worker = new AlertWorker(db, testAlertSettings([], LOCAL), logger, { resolve: slack.resolve, clock: () => now, owner: "alerts:here" });
    try {
      for (const project of [handedOver, cutOff]) {
        await saveSlackUrl(db, project.ownerId, project.id, { slackUrl: `https://hooks.slack.com/services/T000/B000/${project.id.slice(0, 8)}` }, LOCAL, slack.resolve);
        await intro(db, project.id, "Ana Kovac");
      }
      // What a process killed during its posts leaves: its claim ran out, the attempt began, its outcome never
      // recorded; one had sent all of its post but the last byte and was sending that, the other had not.
      const killed = { claimed_by: "alerts:killed", locked_until: new Date(now.getTime() - 1).toISOString(), attempt_started_at: new Date(now.getTime() - 60_000).toISOString(), attempts: 1 };
      await db.updateTable("alert_deliveries").set({ ...killed, handed_over_at: killed.attempt_started_at }).where("project_id", "=", handedOver.id).execute();
      await db.updateTable("alert_deliveries").set(killed).where("project_id", "=", cutOff.id).execute();

      const pass = worker.runOnce();
      await until(() => slack.connections === 1, "the cut-off post posted again");
      // The two are claimed in one pass and settled each on its own: the handed-over one may settle a moment later.
      const readSettled = () => db.selectFrom("alert_deliveries").select(["status", "attempts", "last_error"]).where("project_id", "=", handedOver.id).executeTakeFirstOrThrow();
      await expect.poll(async () => {
        const row = await readSettled();
        return [row.status, Number(row.attempts)];
      }).toEqual(["sent", 1]);
      const settled = await readSettled();
      expect(settled.last_error).toContain("Slack's answer was never recorded");
      const again = await db.selectFrom("alert_deliveries").select(["status", "attempts", "claimed_by"]).where("project_id", "=", cutOff.id).executeTakeFirstOrThrow();
      expect(again).toMatchObject({ status: "pending", claimed_by: "alerts:here" });
      expect(Number(again.attempts)).toBe(2);
      await slack.close();
      await pass;
      expect(slack.connections).toBe(1);
    } finally {
      await slack.close();
      await worker.stop();
    }
  });
});

it("holds a post's last byte until its hand-over is recorded: a receiver has no whole request before, and none at all when the hand-over fails", async () => {
  const bodies: { length: number; complete: boolean }[] = [];
  const receiver = http.createServer((request, response) => {
    const entry = { length: 0, complete: false };
    bodies.push(entry);
    request.on("data", (chunk: Buffer) => (entry.length += chunk.length));
    request.on("end", () => {
      entry.complete = true;
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const body = JSON.stringify({ text: "Ana Kovač requested an intro" });
  try {
    let seenBeforeHandOver: { length: number; complete: boolean } | undefined;
    const answered = await postWebhook(url, body, {}, LOCAL, undefined, undefined, async () => {
      await until(() => bodies[0]?.length === Buffer.byteLength(body) - 1, "all but the last byte at the receiver");
      seenBeforeHandOver = { ...bodies[0]! };
    });
    expect(answered.status).toBe(200);
    expect(seenBeforeHandOver).toEqual({ length: Buffer.byteLength(body) - 1, complete: false });
    expect(bodies[0]).toEqual({ length: Buffer.byteLength(body), complete: true });

    await expect(postWebhook(url, body, {}, LOCAL, undefined, undefined, () => Promise.reject(new Error("claim lost")))).rejects.toThrow("claim lost");
    await until(() => bodies.length === 2, "the second request");
    expect(bodies[1]!.complete).toBe(false);
  } finally {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
