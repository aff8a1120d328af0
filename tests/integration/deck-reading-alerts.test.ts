import { afterAll, beforeAll, expect, it } from "vitest";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { recordDeckBeats } from "~/modules/deck-reading/record-beats.server";
import { summarizeEndedVisits, VisitSummaryPass } from "~/modules/deck-reading/reading-summaries.server";
import { alertChannelsSchema, pushSubscriptionSchema } from "~/modules/founder-alerts/alert-channel-form";
import { AlertWorker, slackBodyOf } from "~/modules/founder-alerts/alert-delivery.server";
import { addPushSubscription, getAlertChannelSettings, saveAlertChannels, saveSlackUrl, type AlertMessage } from "~/modules/founder-alerts/founder-alerts.server";
import { validate } from "~/modules/forms/validation";
import { createLogger } from "~/modules/logging/logger.server";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { beatsOf, createShownDeck, sender } from "../support/deck-reading";
import { createProject, createUser, testMailLinks } from "../support/fixtures";
import { browserSubscription, startTestPushService, testAlertSettings } from "../support/push-service";

type Db = TestDatabase["db"];
const logger = createLogger("silent");
const SLACK_URL = "https://hooks.slack.com/services/T000/B000/XXXXXXXX";
const publicDns = async () => [{ address: "34.200.1.1", family: 4 }];
const T0 = new Date("2026-01-05T10:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

let pushService: Awaited<ReturnType<typeof startTestPushService>>;
beforeAll(async () => {
  pushService = await startTestPushService(() => 201);
});
afterAll(() => pushService.close());

/** A founder's project with a 14-page deck, a phone with notifications on, and a Slack channel. */
async function setup(db: Db) {
  const project = await createProject(db, { title: "Harbor Cold Chain" });
  const deck = await createShownDeck(db, project, 14);
  const phone = browserSubscription(pushService.origin);
  await addPushSubscription(db, project.ownerId, project.id, parse(pushSubscriptionSchema, phone.input), [pushService.service]);
  await saveSlackUrl(db, project.ownerId, project.id, { slackUrl: SLACK_URL }, { allowPrivateTargets: false }, publicDns);
  return { project, deck, phone };
}

/** The reading alerts queued for the project: each event's channels, and its message. */
async function readingAlerts(db: Db, projectId: string) {
  const rows = await db
    .selectFrom("alert_deliveries")
    .select(["event_id", "channel", "payload", "push_subscription_id"])
    .where("project_id", "=", projectId)
    .where((eb) => eb.or([eb("event_id", "like", "deck-view:%"), eb("event_id", "like", "deck-visit:%")]))
    .orderBy("created_at")
    .orderBy("channel")
    .execute();
  return rows.map((row) => ({ event: row.event_id, channel: row.channel, device: row.push_subscription_id, message: JSON.parse(row.payload) as AlertMessage }));
}

/** The titles the phone was pushed, in the order they came. */
function pushedTitles(phone: ReturnType<typeof browserSubscription>) {
  return pushService.received.filter((push) => push.path === phone.path).map((push) => (JSON.parse(phone.decrypt(push.body)) as { title: string; url: string }));
}

const channelsWith = (changes: Record<string, boolean>) =>
  ({ pushIntro: true, pushSignal: true, pushFollow: true, pushReading: true, slackIntro: true, slackSignal: true, slackFollow: true, slackReading: true, ...changes });

describeEachDialect("deck reading alerts", (getDb) => {
  it("alerts once that a lead is reading the deck, by push and Slack, at most once per 10 minutes, as the switches say", async () => {
    const { db } = getDb();
    const { project, deck, phone } = await setup(db);
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ana Kovač", email: "ana@example.com", note: "Hi" }), {
      userId: null,
      identity: { viewerFingerprint: "ana", addressHash: null },
    });
    const lead = await db.selectFrom("leads").select("id").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    const opening = beatsOf({ project: project.id, deck }, [[1, 20]]);
    await recordDeckBeats(db, opening, sender("ana"), at(0));
    // She reloads the page a minute later: a new view, no second alert.
    await recordDeckBeats(db, beatsOf({ project: project.id, deck }, [[2, 20]]), sender("ana"), at(1));

    const alerts = await readingAlerts(db, project.id);
    expect(alerts.map((alert) => [alert.event, alert.channel])).toEqual([
      [`deck-view:${opening[0]!.view}`, "push"],
      [`deck-view:${opening[0]!.view}`, "slack"],
    ]);
    const leadUrl = `https://pitch.example/project/${project.id}/leads?lead=${lead.id}`;
    expect(JSON.parse(slackBodyOf(alerts[1]!.message, "https://pitch.example"))).toEqual({ text: `Ana Kovač is reading your deck (Harbor Cold Chain)\n<${leadUrl}|Open the lead>` });
    await new AlertWorker(db, testAlertSettings([pushService.service]), logger).runOnce();
    expect(pushedTitles(phone).filter((push) => push.title.includes("deck"))).toEqual([{ title: "Ana Kovač is reading your deck", url: leadUrl, body: "Harbor Cold Chain", tag: `lead-${lead.id}` }]);

    // Eleven minutes after the alerted opening she opens it again: alerted again, now by Slack only.
    // The settings form: the Deck reading row's Push box left unticked, its Slack box ticked.
    const posted = parse(alertChannelsSchema, { pushIntro: "on", pushSignal: "on", pushFollow: "on", slackIntro: "on", slackSignal: "on", slackFollow: "on", slackReading: "on" });
    expect(posted).toEqual(channelsWith({ pushReading: false }));
    await saveAlertChannels(db, project.ownerId, project.id, posted);
    expect((await getAlertChannelSettings(db, project.ownerId, project.id)).channels).toMatchObject({ pushReading: false, slackReading: true });
    const later = beatsOf({ project: project.id, deck }, [[3, 5]]);
    await recordDeckBeats(db, later, sender("ana"), at(11));
    expect((await readingAlerts(db, project.id)).slice(2).map((alert) => [alert.event, alert.channel])).toEqual([[`deck-view:${later[0]!.view}`, "slack"]]);

    // Both off: nothing, and her views are never summed up as someone else's.
    await saveAlertChannels(db, project.ownerId, project.id, channelsWith({ pushReading: false, slackReading: false }));
    await recordDeckBeats(db, beatsOf({ project: project.id, deck }, [[4, 5]]), sender("ana"), at(30));
    expect(await readingAlerts(db, project.id)).toHaveLength(3);
    expect(await summarizeEndedVisits(db, at(60))).toEqual({ sent: 0, skipped: 0 });
  });

  it("honours a member's own Deck reading push switch", async () => {
    const { db } = getDb();
    const { project, deck } = await setup(db);
    const member = await createUser(db);
    await db.insertInto("project_members").values({ project_id: project.id, user_id: member, role: "viewer", added_by: project.ownerId, created_at: T0.toISOString() }).execute();
    const memberPhone = browserSubscription(pushService.origin, "Member phone");
    await addPushSubscription(db, member, project.id, parse(pushSubscriptionSchema, memberPhone.input), [pushService.service]);
    await saveAlertChannels(db, member, project.id, channelsWith({ pushReading: false }));
    expect((await getAlertChannelSettings(db, member, project.id)).channels.pushReading).toBe(false);
    expect((await getAlertChannelSettings(db, project.ownerId, project.id)).channels.pushReading).toBe(true);
    await recordDeckBeats(db, beatsOf({ project: project.id, deck }, [[1, 30]]), sender("reader-m"), at(0));
    expect(await summarizeEndedVisits(db, at(3))).toEqual({ sent: 1, skipped: 0 });
    const memberDevice = await db.selectFrom("push_subscriptions").select("id").where("user_id", "=", member).executeTakeFirstOrThrow();
    const alerts = await readingAlerts(db, project.id);
    expect(alerts.map((alert) => alert.channel)).toEqual(["push", "slack"]);
    expect(alerts.some((alert) => alert.device === memberDevice.id)).toBe(false);
  });

  it("sums up another reader's visit once, 2 minutes after its last beat, naming the QR code it came through", async () => {
    const { db } = getDb();
    const { project, deck, phone } = await setup(db);
    const code = await createQrCode(db, project.ownerId, project.id, { label: "Demo Day hall A", eventTag: null });
    const beats = beatsOf({ project: project.id, deck, qr: code.id }, [[1, 50], [2, 70], [3, 60], [2, 30], [5, 30]]);
    await recordDeckBeats(db, beats, sender("reader-1"), at(0));

    expect(await summarizeEndedVisits(db, new Date(at(2).getTime() - 1000))).toEqual({ sent: 0, skipped: 0 });
    expect(await readingAlerts(db, project.id)).toEqual([]);
    expect(await summarizeEndedVisits(db, at(2))).toEqual({ sent: 1, skipped: 0 });
    expect(await summarizeEndedVisits(db, at(5))).toEqual({ sent: 0, skipped: 0 });

    const alerts = await readingAlerts(db, project.id);
    expect(alerts.map((alert) => [alert.event, alert.channel])).toEqual([
      [`deck-visit:${beats[0]!.view}`, "push"],
      [`deck-visit:${beats[0]!.view}`, "slack"],
    ]);
    const deckUrl = `https://pitch.example/project/${project.id}/deck`;
    expect(JSON.parse(slackBodyOf(alerts[1]!.message, "https://pitch.example"))).toEqual({
      text: `Someone at Demo Day hall A read 4 of 14 pages in 4 min (Harbor Cold Chain)\n<${deckUrl}|Open the deck>`,
    });
    await new AlertWorker(db, testAlertSettings([pushService.service]), logger).runOnce();
    expect(pushedTitles(phone).map((push) => [push.title, push.url])).toEqual([["Someone at Demo Day hall A read 4 of 14 pages in 4 min", deckUrl]]);
    expect((await db.selectFrom("deck_views").select("summary_state").where("id", "=", beats[0]!.view).executeTakeFirstOrThrow()).summary_state).toBe("sent");
  });

  it("sends one summary per viewer per 10 minutes: views of one visit together, a visit soon after skipped, one without time nothing", async () => {
    const { db } = getDb();
    const { project, deck } = await setup(db);
    const where = { project: project.id, deck };
    // Two views of one visit (a reload): one summary of both, their pages counted once.
    await recordDeckBeats(db, beatsOf(where, [[1, 30], [2, 30]]), sender("bo"), at(0));
    await recordDeckBeats(db, beatsOf(where, [[2, 20], [3, 40]]), sender("bo"), at(1));
    expect(await summarizeEndedVisits(db, at(2))).toEqual({ sent: 0, skipped: 0 });
    expect(await summarizeEndedVisits(db, at(3))).toEqual({ sent: 1, skipped: 0 });
    // Back five minutes later: skipped. Back after the quiet 10 minutes: summed up again.
    await recordDeckBeats(db, beatsOf(where, [[4, 30]]), sender("bo"), at(6));
    expect(await summarizeEndedVisits(db, at(9))).toEqual({ sent: 0, skipped: 1 });
    await recordDeckBeats(db, beatsOf(where, [[5, 45]]), sender("bo"), at(12));
    expect(await summarizeEndedVisits(db, at(15))).toEqual({ sent: 1, skipped: 0 });
    // A page left open without a second of reading alerts nothing.
    await recordDeckBeats(db, beatsOf(where, []), sender("cy"), at(20));
    expect(await summarizeEndedVisits(db, at(23))).toEqual({ sent: 0, skipped: 1 });

    const titles = (await readingAlerts(db, project.id)).filter((alert) => alert.channel === "slack").map((alert) => alert.message.title);
    expect(titles).toEqual(["Someone at your page read 3 of 14 pages in 2 min", "Someone at your page read 1 of 14 pages in 45 s"]);
    const states = await db.selectFrom("deck_views").select("summary_state").where("project_id", "=", project.id).orderBy("started_at").execute();
    expect(states.map((view) => view.summary_state)).toEqual(["sent", "sent", "skipped", "sent", "skipped"]);
  });

  it("never alerts of the team's or bots' reading", async () => {
    const { db } = getDb();
    const { project, deck } = await setup(db);
    await recordDeckBeats(db, beatsOf({ project: project.id, deck }, [[1, 60]]), sender("teammate", "team"), at(0));
    await recordDeckBeats(db, beatsOf({ project: project.id, deck }, [[1, 60]]), sender("crawler", "bot"), at(0));
    expect(await summarizeEndedVisits(db, at(30))).toEqual({ sent: 0, skipped: 0 });
    expect(await readingAlerts(db, project.id)).toEqual([]);
  });

  it("decides each visit once with two passes running at the same time", async () => {
    const { db } = getDb();
    const { project, deck } = await setup(db);
    for (const viewer of ["p1", "p2", "p3", "p4"]) await recordDeckBeats(db, beatsOf({ project: project.id, deck }, [[1, 30]]), sender(viewer), at(0));
    const passes = [0, 1].map(() => new VisitSummaryPass(db, logger, { clock: () => at(3) }));
    const runs = await Promise.all(passes.map((pass) => pass.runOnce()));
    expect(runs[0]!.sent + runs[1]!.sent).toBe(4);
    const alerts = await readingAlerts(db, project.id);
    expect(alerts).toHaveLength(8);
    expect(new Set(alerts.map((alert) => `${alert.event} ${alert.channel}`)).size).toBe(8);
  });
});
