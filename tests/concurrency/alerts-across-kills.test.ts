// Founder alerts across kill -9 on two instances of the built app sharing one PostgreSQL (decision 81). Visitors'
// intros stream in on both instances for three founders, each with a phone and a Slack channel; the push service and
// Slack hang on every fourth request, so that pushes and posts are in flight, held, when both instances are killed
// mid-stream. That happens twice; after each, the dead processes' claims are made to have run out (the test standing
// in for the 2-minute lease passing) and both instances start again. Once every delivery settled, what arrived is
// held to the guarantee per channel: a Slack post arrived at most once, and is missing only where its row says it
// was handed over and never confirmed; a push arrived at least once, and every repeat carries the Topic and tag of
// the first, so it replaces it.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "~/db/client.server";
import { pushTopicOf } from "~/modules/founder-alerts/alert-delivery.server";
import { startAppServer, type AppServer } from "../support/app-server";
import { founderWithAlerts, localAlertEnv, localSlackUrl, sendIntro, visitorNamed } from "../support/alert-instances";
import { createPostgresDatabase } from "../support/postgres";
import { startTestPushService, type ReceivedPush } from "../support/push-service";
import { startWebhookReceiver } from "../support/webhook-receiver";
import { showServerLogsOnFailure } from "../support/clients";

const AUTH_SECRET = "concurrency-test-secret-0123456789-abcdefghij";
const INSTANCES = 2;
const ROUNDS = 2;
const FOUNDERS = 3;
/** Intros kept in flight by the visitors. */
const LANES = 6;
/** Intros each round takes, at least, before the kill. */
const INTROS_PER_ROUND = 20;
/** While the instances are to be killed, the push service and Slack leave every HANG_EVERY-th request unanswered. */
const HANG_EVERY = 4;
/**
 * A round ends this long after its first held request at the latest: the app gives up on an answer after 10 s, and a
 * push given up waits 30 s for its retry, so a kill within 5 s finds every held request still held.
 */
const HOLD_LIMIT_MS = 5_000;
const DRAIN_TIMEOUT_MS = 30_000;
const UNCONFIRMED = /^Slack's answer was never recorded/;

type Founder = Awaited<ReturnType<typeof founderWithAlerts>> & { title: string };
type KillMoment = { round: number; acknowledged: number; slackHeld: number; pushesHeld: number; oldestHeldMs: number };
type Row = { id: string; project_id: string; channel: string; status: string; last_error: string | null; payload: string };

describe("founder alerts on two instances killed with SIGKILL mid-stream, twice", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let fixtures: AppDatabase;
  let apps: AppServer[] = [];
  const everyApp: AppServer[] = [];
  let env: Record<string, string>;
  let pushService: Awaited<ReturnType<typeof startTestPushService>>;
  let slack: Awaited<ReturnType<typeof startWebhookReceiver>>;
  /** Until the last restart the receivers hang now and then; after it they answer everything. */
  let hanging = true;
  const requests = { pushes: 0, posts: 0 };
  const heldSince: number[] = [];
  const hangNow = (count: number) => {
    if (!hanging || count % HANG_EVERY !== HANG_EVERY - 1) return false;
    heldSince.push(performance.now());
    return true;
  };
  showServerLogsOnFailure(() => everyApp);

  const startInstances = async () => {
    apps = await Promise.all(Array.from({ length: INSTANCES }, () => startAppServer({ env })));
    everyApp.push(...apps);
  };

  beforeAll(async () => {
    pushService = await startTestPushService(() => (hangNow(requests.pushes++) ? "hang" : 201));
    slack = await startWebhookReceiver(() => (hangNow(requests.posts++) ? "hang" : { status: 200 }));
    database = await createPostgresDatabase("pitchqr_alert_kills");
    env = { DATABASE_URL: database.url, AUTH_SECRET, ...localAlertEnv(pushService) };
    // The first instance migrates the new database; the others start on it.
    const first = await startAppServer({ env });
    apps = [first, ...(await Promise.all(Array.from({ length: INSTANCES - 1 }, () => startAppServer({ env }))))];
    everyApp.push(...apps);
    fixtures = openDatabase({ dialect: "postgres", url: database.url });
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await fixtures?.close();
    await Promise.all([pushService?.close(), slack?.close()]);
    await database?.drop();
    for (const app of everyApp) fs.rmSync(app.dataDir, { recursive: true, force: true });
  });

  it(`sends each Slack post at most once and each push at least once under one Topic, across ${ROUNDS} kills of both instances`, async () => {
    const founders: Founder[] = [];
    for (let i = 0; i < FOUNDERS; i += 1) {
      const title = `Kill Founder ${i}`;
      founders.push({ ...(await founderWithAlerts(fixtures.db, pushService, localSlackUrl(slack.port, `KILL${i}`), title)), title });
    }
    const pushesHeld = () => founders.reduce((sum, founder) => sum + pushService.hangingAt(founder.phone.path), 0);

    const acknowledged = new Map<string, Founder>();
    const cutOff = new Map<string, Founder>();
    const unexpected: string[] = [];
    const kills: KillMoment[] = [];
    let sent = 0;

    for (let round = 1; round <= ROUNDS; round += 1) {
      // Visitors keep LANES intros in flight, round-robin over the founders and the instances, until the kill.
      let killing = false;
      let roundAcknowledged = 0;
      const lanes = Array.from({ length: LANES }, async () => {
        while (!killing) {
          const n = sent++;
          const founder = founders[n % FOUNDERS]!;
          const name = `Visitor R${round} N${n}`;
          try {
            await sendIntro(apps[n % INSTANCES]!, founder.projectId, name);
            acknowledged.set(name, founder);
            roundAcknowledged += 1;
          } catch (error) {
            // Cut off by the kill: not acknowledged, so its intro may or may not be there.
            if (killing) cutOff.set(name, founder);
            else unexpected.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      });

      // Mid-stream, with at least one push and one Slack post held unanswered: both instances are killed.
      const oldestHeld = () => (heldSince.length ? performance.now() - Math.min(...heldSince) : 0);
      try {
        await expect
          .poll(() => slack.open > 0 && pushesHeld() > 0 && (roundAcknowledged >= INTROS_PER_ROUND || oldestHeld() >= HOLD_LIMIT_MS), { timeout: 30_000, interval: 20 })
          .toBe(true);
        kills.push({ round, acknowledged: roundAcknowledged, slackHeld: slack.open, pushesHeld: pushesHeld(), oldestHeldMs: Math.round(oldestHeld()) });
      } finally {
        killing = true;
      }
      const killed = apps.map((app) => app.pid);
      await Promise.all(apps.map((app) => app.stop("SIGKILL")));
      await Promise.all(lanes);
      heldSince.length = 0;
      if (round === ROUNDS) hanging = false;

      // The 2-minute lease passing: the dead processes' claims run out now (claimed_by is "alerts:<host>:<pid>:…").
      await fixtures.db
        .updateTable("alert_deliveries")
        .set({ locked_until: new Date(Date.now() - 1_000).toISOString() })
        .where("status", "=", "pending")
        .where((eb) => eb.or(killed.map((pid) => eb("claimed_by", "like", `alerts:%:${pid}:%`))))
        .execute();
      await startInstances();
    }
    expect(unexpected).toEqual([]);

    // Every delivery settles on the restarted instances.
    const rows = async (): Promise<Row[]> =>
      fixtures.db.selectFrom("alert_deliveries").select(["id", "project_id", "channel", "status", "last_error", "payload"]).orderBy("created_at").execute();
    await expect
      .poll(async () => (await rows()).filter((row) => row.status === "pending").length, { timeout: DRAIN_TIMEOUT_MS, interval: 200 })
      .toBe(0);
    const settled = await rows();

    const founderOf = new Map(founders.map((founder) => [founder.projectId, founder]));
    const nameOf = (row: Row) => visitorNamed((JSON.parse(row.payload) as { title: string }).title);
    const problems: string[] = [];

    // Every acknowledged intro queued one push and one Slack post for its founder; every row is of an intro sent.
    for (const [name, founder] of acknowledged) {
      const channels = settled.filter((row) => nameOf(row) === name && row.project_id === founder.projectId).map((row) => row.channel);
      if (channels.sort().join() !== "push,slack") problems.push(`${name}: queued ${JSON.stringify(channels)}`);
    }
    for (const row of settled) {
      const sentTo = acknowledged.get(nameOf(row)) ?? cutOff.get(nameOf(row));
      if (sentTo?.projectId !== row.project_id) problems.push(`${row.channel} ${row.id} for an intro never sent: ${nameOf(row)}`);
      if (row.status !== "sent") problems.push(`${row.channel} ${row.id} (${nameOf(row)}) ended ${row.status}: ${row.last_error}`);
    }

    // Slack: at most once; missing only when the row says its answer was never recorded.
    const posts = new Map<string, number>();
    for (const post of slack.received) {
      const name = visitorNamed((JSON.parse(post.body) as { text: string }).text);
      posts.set(name, (posts.get(name) ?? 0) + 1);
    }
    const slackRows = settled.filter((row) => row.channel === "slack");
    let unconfirmedArrived = 0;
    let unconfirmedMissing = 0;
    let twice = 0;
    for (const row of slackRows) {
      const name = nameOf(row);
      const arrived = posts.get(name) ?? 0;
      posts.delete(name);
      const unconfirmed = row.last_error !== null && UNCONFIRMED.test(row.last_error);
      if (arrived > 1) {
        twice += 1;
        problems.push(`Slack post for ${name} arrived ${arrived} times`);
      }
      if (row.last_error !== null && !unconfirmed) problems.push(`Slack post for ${name} sent with last_error ${row.last_error}`);
      if (arrived === 0 && !unconfirmed) problems.push(`Slack post for ${name} settled sent but never arrived`);
      if (unconfirmed && arrived === 1) unconfirmedArrived += 1;
      if (unconfirmed && arrived === 0) unconfirmedMissing += 1;
    }
    for (const [name, count] of posts) problems.push(`${count} Slack post(s) for ${name}, which has no Slack row`);

    // Pushes: at least once; a repeat has the first one's Topic (its delivery's) and tag, so it replaces it.
    const pushRows = settled.filter((row) => row.channel === "push");
    const pushesOf = (founder: Founder) => pushService.received.filter((push: ReceivedPush) => push.path === founder.phone.path);
    const arrivals = new Map<string, { topic: unknown; tag: string }[]>();
    for (const founder of founders) {
      for (const push of pushesOf(founder)) {
        const payload = JSON.parse(founder.phone.decrypt(push.body)) as { title: string; tag: string };
        const name = visitorNamed(payload.title);
        arrivals.set(name, [...(arrivals.get(name) ?? []), { topic: push.headers.topic, tag: payload.tag }]);
      }
    }
    let repeats = 0;
    for (const row of pushRows) {
      const name = nameOf(row);
      const received = arrivals.get(name) ?? [];
      arrivals.delete(name);
      const expected = { topic: pushTopicOf(row.id), tag: (JSON.parse(row.payload) as { tag: string }).tag };
      if (received.length === 0) problems.push(`push for ${name} (${founderOf.get(row.project_id)?.title}) never arrived`);
      if (row.last_error !== null) problems.push(`push for ${name} sent with last_error ${row.last_error}`);
      for (const push of received) if (push.topic !== expected.topic || push.tag !== expected.tag) problems.push(`push for ${name} arrived as ${JSON.stringify(push)}, not ${JSON.stringify(expected)}`);
      repeats += Math.max(0, received.length - 1);
    }
    for (const [name, received] of arrivals) problems.push(`${received.length} push(es) for ${name}, which has no push row`);

    console.log(
      [
        `alerts across ${ROUNDS} kills of ${INSTANCES} instances: ${acknowledged.size} intros acknowledged, ${cutOff.size} cut off by a kill`,
        ...kills.map((kill) => `  kill ${kill.round}: after ${kill.acknowledged} intros, ${kill.slackHeld} Slack post(s) and ${kill.pushesHeld} push(es) held, the oldest for ${kill.oldestHeldMs} ms`),
        `  Slack: ${slackRows.length} queued, ${slack.received.length} posts received, ${slackRows.length - unconfirmedArrived - unconfirmedMissing} confirmed, ` +
          `${unconfirmedArrived + unconfirmedMissing} sent unconfirmed (${unconfirmedArrived} of them arrived, ${unconfirmedMissing} not), ${twice} posted twice`,
        `  Push: ${pushRows.length} queued, ${founders.reduce((sum, founder) => sum + pushesOf(founder).length, 0)} received, ${repeats} repeat(s)`,
      ].join("\n"),
    );
    expect(problems).toEqual([]);
    // The kills left what they were meant to: a held push sent again, and a handed-over Slack post settled unconfirmed.
    expect(repeats).toBeGreaterThanOrEqual(ROUNDS);
    expect(unconfirmedArrived + unconfirmedMissing).toBeGreaterThanOrEqual(ROUNDS);
  });
});
