// One founder's slow Slack URL or push device delays nobody else (decision 81), on three instances of the built app
// sharing one PostgreSQL: founder A's Slack receiver and push endpoint take every request and never answer; while
// each instance holds one of A's posts and one of A's pushes unanswered, founder B's visitors request intros on all
// three instances, and every one of B's pushes and Slack posts arrives, once, while A's are still hanging.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { founderWithAlerts, localAlertEnv, localSlackUrl, sendIntro, visitorNamed } from "../support/alert-instances";
import { startTestPushService } from "../support/push-service";
import { startWebhookReceiver } from "../support/webhook-receiver";
import { withAppServers } from "../support/with-app-server";

const AUTH_SECRET = "concurrency-test-secret-0123456789-abcdefghij";
const INSTANCES = 3;
const SLOW_INTROS = 6;
const FINE_INTROS = 9;

/** What A's destinations were holding when one of B's deliveries arrived. */
type Beside = { slackOpen: number; pushesHanging: number };

describe("founder alerts on three instances beside a founder whose Slack and phone never answer", () => {

  const hangingPaths = new Set<string>();
  const besidePushes: Beside[] = [];
  const besidePosts: Beside[] = [];
  let slowPhonePath = "";
  let pushService: Awaited<ReturnType<typeof startTestPushService>>;
  let slowSlack: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let fineSlack: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const beside = (): Beside => ({ slackOpen: slowSlack.open, pushesHanging: pushService.hangingAt(slowPhonePath) });

  beforeAll(async () => {
    pushService = await startTestPushService((push) => {
      if (hangingPaths.has(push.path)) return "hang";
      besidePushes.push(beside());
      return 201;
    });
    slowSlack = await startWebhookReceiver(() => "hang");
    fineSlack = await startWebhookReceiver(() => {
      besidePosts.push(beside());
      return { status: 200 };
    });
  });

  afterAll(async () => {
    await Promise.all([pushService?.close(), slowSlack?.close(), fineSlack?.close()]);
  });

  const instances = withAppServers(INSTANCES, { postgres: "pitchqr_alert_neighbour", env: () => ({ AUTH_SECRET, ...localAlertEnv(pushService) }) });
  const apps = instances.servers;

  it(`delivers all ${FINE_INTROS} of B's pushes and Slack posts once while every instance holds one of A's of each unanswered`, async () => {
    const slow = await founderWithAlerts(instances.db, pushService, localSlackUrl(slowSlack.port, "SLOWSLOW"), "Slow Neighbour");
    slowPhonePath = slow.phone.path;
    hangingPaths.add(slow.phone.path);
    const fine = await founderWithAlerts(instances.db, pushService, localSlackUrl(fineSlack.port, "FINEFINE"), "Fine Founder");

    // A's visitors come first, on every instance: A's posts and pushes are due before any of B's.
    for (let i = 0; i < SLOW_INTROS; i += 1) await sendIntro(apps[i % INSTANCES]!, slow.projectId, `Slow Visitor ${i}`);
    // Each instance sends one of A's posts and one of A's pushes at a time, and each is held unanswered.
    await expect.poll(() => ({ slackOpen: slowSlack.open, pushesHanging: pushService.hangingAt(slow.phone.path) })).toEqual({
      slackOpen: INSTANCES,
      pushesHanging: INSTANCES,
    });

    const fineNames = Array.from({ length: FINE_INTROS }, (_, i) => `Fine Visitor ${i}`);
    await Promise.all(fineNames.map((name, i) => sendIntro(apps[i % INSTANCES]!, fine.projectId, name)));
    const finePushes = () => pushService.received.filter((push) => push.path === fine.phone.path);
    await expect.poll(() => finePushes().length).toBe(FINE_INTROS);
    await expect.poll(() => fineSlack.received.length).toBe(FINE_INTROS);

    // Every one of B's arrived while A's Slack and A's phone each had requests held open.
    expect(besidePushes.filter((beside) => beside.slackOpen === 0 || beside.pushesHanging === 0)).toEqual([]);
    expect(besidePosts.filter((beside) => beside.slackOpen === 0 || beside.pushesHanging === 0)).toEqual([]);
    expect(slowSlack.open).toBeGreaterThan(0);
    expect(pushService.hangingAt(slow.phone.path)).toBeGreaterThan(0);

    // Once each: every settled as sent, and nothing sent again after.
    const fineStatuses = async () =>
      (await instances.db.selectFrom("alert_deliveries").select("status").where("project_id", "=", fine.projectId).execute()).map((row) => row.status);
    await expect.poll(fineStatuses).toEqual(Array(2 * FINE_INTROS).fill("sent"));
    const pushed = finePushes().map((push) => visitorNamed((JSON.parse(fine.phone.decrypt(push.body)) as { title: string }).title));
    const posted = fineSlack.received.map((post) => visitorNamed((JSON.parse(post.body) as { text: string }).text));
    expect(pushed.sort()).toEqual([...fineNames].sort());
    expect(posted.sort()).toEqual([...fineNames].sort());
    expect(new Set(finePushes().map((push) => push.headers.topic)).size).toBe(FINE_INTROS);
  });
});
