// Decision 50: a form that looks automated is held, kept with its content and counted nowhere;
// the founder accepts it (a lead as of when it was sent) or discards it (no trace). Both databases.
import { ScanRecorder } from "~/modules/scans/scans.server";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, expect, it } from "vitest";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { HELD_MESSAGE } from "~/modules/contacts/visitor-form-rules";
import { discardHeldSubmission, listHeldSubmissions } from "~/modules/held/held-submissions.server";
import { readLeadFilters } from "~/modules/leads/lead-forms";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { MailWorker } from "~/modules/mail/mail-worker.server";
import { createFileTransport } from "~/modules/mail/transport.server";
import { countFormRefusals } from "~/modules/rate-limit/form-refusals.server";
import { HELD_FORM_CEILINGS } from "~/modules/rate-limit/rate-limit.server";
import { createLocalProjectEvents } from "~/modules/realtime/project-events.server";
import { PageDoor, viewerFingerprintOf } from "~/modules/scans/page-door.server";
import { recordScans } from "~/modules/scans/scans.server";
import { VISIT_GAP_MS } from "~/modules/scans/page-opened.server";
import { readWall } from "~/modules/recognition/wall.server";
import { readTickerSince, TICKER_SETTLE_MS } from "~/modules/booth/booth.server";
import { acceptHeldSubmission } from "~/modules/visitor-forms/pipeline/held-review.server";
import { handleVisitorSubmission, type VisitorSubmission } from "~/modules/visitor-forms/pipeline/visitor-submission.server";
import { addWebhookEndpoint } from "~/modules/webhooks/webhooks.server";
import { WebhookWorker } from "~/modules/webhooks/webhook-delivery.server";
import { AlertWorker } from "~/modules/founder-alerts/alert-delivery.server";
import { testAlertSettings } from "../support/push-service";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-held-mail-"));
afterAll(() => fs.rmSync(mailDir, { recursive: true, force: true }));

describeEachDialect("forms held for review", (getDb) => {
  const logger = pino({ level: "silent" });
  const pageDoor = new PageDoor({ secret: "held-secret-0123456789abcdef012345", secureCookie: false });
  const services = () => {
    const { db } = getDb();
    return {
      database: getDb(),
      events: createLocalProjectEvents(),
      logger,
      mailLinks: testMailLinks,
      mail: new MailWorker(db, createFileTransport(mailDir, "PitchQR <no-reply@localhost>"), logger),
      pageDoor,
      scans: new ScanRecorder(db),
      webhooks: new WebhookWorker(db, { allowPrivateTargets: false }, logger, testMailLinks),
      alerts: new AlertWorker(db, testAlertSettings(), logger),
    };
  };
  let browsers = 0;
  /** A phone that opened the pitch page: its viewer cookie, and when the door counted the page load (epoch ms). */
  const openPage = async (projectId: string) => {
    const viewerId = (0xa000 + ++browsers).toString(16).padStart(32, "0");
    const fingerprint = viewerFingerprintOf(viewerId);
    await recordScans(getDb().db, [{ projectId, qrCodeId: null, viewerFingerprint: fingerprint, addressHash: null }]);
    const scan = await getDb()
      .db.selectFrom("scans")
      .select("scanned_at")
      .where("project_id", "=", projectId)
      .where("viewer_fingerprint", "=", fingerprint)
      .executeTakeFirstOrThrow();
    return { cookie: pageDoor.viewerCookie(viewerId).split(";")[0]!, openedAt: Date.parse(String(scan.scanned_at)), fingerprint };
  };
  /** The same phone loading the page again at `at` (a reload, the page reopened). */
  const loadAgain = (projectId: string, fingerprint: string, at: number) =>
    recordScans(getDb().db, [{ projectId, qrCodeId: null, viewerFingerprint: fingerprint, addressHash: null, cookieKept: true }], undefined, new Date(at));
  const form = (projectId: string, cookie: string, intent: VisitorSubmission["intent"], values: Record<string, unknown>, extra: Partial<VisitorSubmission> = {}): VisitorSubmission => ({
    intent,
    projectId,
    values,
    clientIp: "203.0.113.60",
    honeypot: "",
    visitor: { userId: null },
    cookieHeader: cookie,
    userAgent: PHONE,
    ...extra,
  });
  const subscribe = (projectId: string, cookie: string, index: number) =>
    form(projectId, cookie, "subscribe", { name: `Walk-up ${index}`, email: `walkup${index}@example.com`, consent: "on" });
  /** Everything a counted form leaves behind, for "counted nowhere" and "no trace". */
  const traces = async (projectId: string, ownerId: string, mailTo: string[] = ["nobody@example.com"]) => {
    const { db } = getDb();
    const count = async (table: "leads" | "contacts" | "intros" | "signals" | "webhook_deliveries" | "pending_lead_alerts" | "recognition_entries") =>
      Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).where("project_id", "=", projectId).executeTakeFirstOrThrow()).n);
    const mails = Number((await db.selectFrom("mail_outbox").select((eb) => eb.fn.countAll<number>().as("n")).where("recipient", "in", mailTo).executeTakeFirstOrThrow()).n);
    const analytics = await loadProjectAnalytics(db, ownerId, projectId);
    return {
      leads: await count("leads"),
      contacts: await count("contacts"),
      intros: await count("intros"),
      signals: await count("signals"),
      mails,
      webhooks: await count("webhook_deliveries"),
      alerts: await count("pending_lead_alerts"),
      wall: await count("recognition_entries"),
      totals: [analytics.totalIntros, analytics.totalSubscribers, analytics.totalSignals, analytics.peopleWhoActed],
      funnel: analytics.funnel.map((row) => [row.intros, row.subscribers, row.signals, row.people]),
    };
  };
  const addWebhook = (projectId: string, ownerId: string) =>
    addWebhookEndpoint(getDb().db, ownerId, projectId, { url: "https://hooks.example/in" }, { allowPrivateTargets: false }, async () => [{ address: "93.184.216.34", family: 4 }]);

  it("never holds a staff phone typing in 15 walk-ups, one every 15 seconds", async () => {
    const project = await createProject(getDb().db);
    const { cookie, openedAt } = await openPage(project.id);
    const answers = [];
    for (let index = 0; index < 15; index += 1) {
      answers.push(await handleVisitorSubmission(services(), subscribe(project.id, cookie, index), new Date(openedAt + (index + 1) * 15_000)));
    }
    expect(answers.filter((answer) => answer.held)).toEqual([]);
    const analytics = await loadProjectAnalytics(getDb().db, project.ownerId, project.id);
    expect([analytics.totalSubscribers, analytics.peopleWhoActed, analytics.heldForReview, analytics.refusedLastWeek]).toEqual([15, 15, 0, 0]);
  });

  it("holds all 30 forms of a flood sent right after opening the page, counts none of them anywhere, and says why", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await addWebhook(project.id, project.ownerId);
    const { cookie, openedAt } = await openPage(project.id);
    const answers = [];
    for (let index = 0; index < 30; index += 1) {
      const intro = form(project.id, cookie, "intro", { name: `Bot ${index}`, email: `bot${index}@example.com`, note: "Buy now" });
      answers.push(await handleVisitorSubmission(services(), intro, new Date(openedAt + 500 + index * 150)));
    }
    expect(answers).toEqual(Array.from({ length: 30 }, () => ({ message: HELD_MESSAGE, held: true })));
    expect(await traces(project.id, project.ownerId, Array.from({ length: 30 }, (_, index) => `bot${index}@example.com`))).toEqual({
            leads: 0,
      contacts: 0,
      intros: 0,
      signals: 0,
      mails: 0,
      webhooks: 0,
      alerts: 0,
      wall: 0,
      totals: [0, 0, 0, 0],
      funnel: expect.any(Array),
    });
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect(analytics.heldForReview).toBe(30);
    expect(analytics.funnel.every((row) => row.people === 0 && row.intros === 0)).toBe(true);
    expect((await openLeadInbox(db, project.ownerId, project.id, readLeadFilters(new URLSearchParams()))).heldForReview).toBe(30);

    const list = await listHeldSubmissions(db, project.ownerId, project.id);
    const oldestFirst = [...list.held].reverse();
    expect(oldestFirst.map((item) => item.name)).toEqual(Array.from({ length: 30 }, (_, index) => `Bot ${index}`));
    expect(oldestFirst[0]).toMatchObject({
      intent: "intro",
      email: "bot0@example.com",
      sent: [{ label: "Intro request", value: "Buy now" }],
      code: "Direct link",
      reasonText: "Sent 0.5 seconds after the page was opened",
      receivedAt: new Date(openedAt + 500).toISOString(),
    });
    expect(oldestFirst[20]!.reasonText).toMatch(/^(Sent .* after another form from this browser was held|\d+ forms from one browser within .*)$/);
  });

  it("takes back the first forms of a flood that waited out the speed check once its burst shows, and only those", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await addWebhook(project.id, project.ownerId);
    const tier = project.tiers[0]!;
    // Ada asked for an intro from her own phone a minute before; a real person acts from theirs during the flood.
    const ada = await openPage(project.id);
    await handleVisitorSubmission(services(), form(project.id, ada.cookie, "intro", { name: "Ada Real", email: "ada@example.com", note: "Met at the booth" }), new Date(ada.openedAt + 60_000));
    const before = await traces(project.id, project.ownerId, ["ada@example.com"]);
    const adaLead = await db.selectFrom("leads").selectAll().where("project_id", "=", project.id).executeTakeFirstOrThrow();
    const person = await openPage(project.id);

    // The script waits 4 s after the page loads, then sends 30 forms 50 ms apart: an intro, a subscription and a
    // signal in Ada's name (her lead gains them), then intros under new addresses.
    const bot = await openPage(project.id);
    const start = bot.openedAt + 4_000;
    const flooded = services();
    const floodForms = [
      form(project.id, bot.cookie, "intro", { name: "Bot 0", email: "bot0@example.com", note: "Buy now" }),
      form(project.id, bot.cookie, "subscribe", { name: "Bot 1", email: "bot1@example.com", consent: "on" }),
      form(project.id, bot.cookie, "signal", { name: "Ada Real", email: "ada@example.com", tierId: tier.id, showName: "on", message: "Spam" }),
      ...Array.from({ length: 27 }, (_, index) => form(project.id, bot.cookie, "intro", { name: `Bot ${index + 3}`, email: `bot${index + 3}@example.com`, note: "Buy now" })),
    ];
    const answers = [];
    for (const [index, flood] of floodForms.entries()) {
      answers.push(await handleVisitorSubmission(flooded, flood, new Date(start + index * 50)));
      if (index === 1) {
        await handleVisitorSubmission(flooded, form(project.id, person.cookie, "subscribe", { name: "Real Person", email: "real@example.com", consent: "on" }), new Date(start + 60));
      }
    }
    // The first three were answered as accepted (the script cannot tell), the rest as held.
    expect(answers.map((answer) => Boolean(answer.held))).toEqual([false, false, false, ...Array.from({ length: 27 }, () => true)]);

    // All 30 wait for review; none is counted, mailed, alerted or posted, and Ada's lead is as it was.
    const list = await listHeldSubmissions(db, project.ownerId, project.id);
    expect(list.total).toBe(30);
    const oldestFirst = [...list.held].reverse();
    expect(oldestFirst.slice(0, 3).map((item) => [item.name, item.reasonText, item.receivedAt])).toEqual(
      [0, 1, 2].map((index) => [index === 2 ? "Ada Real" : `Bot ${index}`, "Accepted at first, then moved here: a later form from this browser was part of a burst", new Date(start + index * 50).toISOString()]),
    );
    // What the workers had not sent yet is not sent at all (a mail already handed to the server cannot be recalled).
    const bots = Array.from({ length: 30 }, (_, index) => `bot${index}@example.com`);
    const waiting = await db.selectFrom("mail_outbox").select("recipient").where("recipient", "in", bots).where("sent_at", "is", null).where("locked_until", "is", null).execute();
    expect(waiting).toEqual([]);
    const after = await traces(project.id, project.ownerId, ["ada@example.com"]);
    expect({ ...after, mails: 0, webhooks: 0, wall: 0 }).toEqual({ ...before, leads: 2, contacts: 2, totals: [1, 1, 0, 2], funnel: expect.any(Array), mails: 0, webhooks: 0, wall: 0 });
    // The signal's wall entry is hidden (it keeps its number, so no wall cursor moves back), and the booth ticker,
    // which shows a form once its burst window has passed, shows Ada's own intro and none of the flood's.
    expect((await readWall(db, project.id)).entries).toEqual([]);
    const ticker = await readTickerSince(db, project.id, new Date(ada.openedAt).toISOString(), new Date(Date.now() + TICKER_SETTLE_MS + 1_000));
    expect(ticker.filter((item) => item.kind !== "scan").map((item) => item.kind)).toEqual(["intro"]);
    const unsentWebhooks = await db.selectFrom("webhook_deliveries").innerJoin("webhook_endpoints", "webhook_endpoints.id", "webhook_deliveries.endpoint_id").select("webhook_deliveries.id").where("webhook_endpoints.project_id", "=", project.id).where("webhook_deliveries.attempts", "=", 0).execute();
    expect(unsentWebhooks.length).toBeLessThanOrEqual(2);
    expect(await db.selectFrom("leads").selectAll().where("id", "=", adaLead.id).executeTakeFirstOrThrow()).toEqual(adaLead);
    const inbox = await openLeadInbox(db, project.ownerId, project.id, readLeadFilters(new URLSearchParams()));
    expect(inbox.leads.map((lead) => lead.name).sort()).toEqual(["Ada Real", "Real Person"]);
    expect(inbox.heldForReview).toBe(30);
    const counters = await db.selectFrom("source_stats").select(["source", "intros", "subscribers", "signals", "people"]).where("project_id", "=", project.id).orderBy("source").execute();
    expect(counters.map((row) => [row.source, Number(row.intros), Number(row.subscribers), Number(row.signals), Number(row.people)])).toEqual([
      ["*", 0, 0, 0, 2],
      ["direct", 1, 1, 0, 2],
    ]);

    // Accepting one of them writes it as it was sent, with its own time.
    const subscription = oldestFirst[1]!;
    await acceptHeldSubmission(services(), project.ownerId, project.id, subscription.id);
    const bot1 = await db.selectFrom("leads").select(["first_seen_at", "did_subscribe"]).where("project_id", "=", project.id).where("email", "=", "bot1@example.com").executeTakeFirstOrThrow();
    expect(bot1).toEqual({ first_seen_at: new Date(start + 50).toISOString(), did_subscribe: true });
  });

  it("says a form held at 2.95 s was sent 2.9 seconds after the page was opened, never the 3 s it did not reach", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const { cookie, openedAt } = await openPage(project.id);
    const intro = form(project.id, cookie, "intro", { name: "Quick Fingers", email: "quick@example.com", note: "Hello" });
    expect(await handleVisitorSubmission(services(), intro, new Date(openedAt + 2_950))).toEqual({ message: HELD_MESSAGE, held: true });
    const { held } = await listHeldSubmissions(db, project.ownerId, project.id);
    expect(held.map((item) => item.reasonText)).toEqual(["Sent 2.9 seconds after the page was opened"]);
  });

  it("judges an offline form by when it was filled in, not by the reopened page that sent it", async () => {
    const project = await createProject(getDb().db);
    const { cookie, openedAt, fingerprint } = await openPage(project.id);
    // Filled in 40 s after opening, kept offline; the page reopened 2 hours later sends it half a second after loading.
    const reopenedAt = openedAt + 2 * 60 * 60 * 1000;
    await loadAgain(project.id, fingerprint, reopenedAt);
    const actedAt = new Date(openedAt + 40_000).toISOString();
    const intro = form(project.id, cookie, "intro", { name: "Offline Olga", email: "olga@example.com", note: "From the basement" }, { actedAt });
    expect(await handleVisitorSubmission(services(), intro, new Date(reopenedAt + 500))).not.toMatchObject({ held: true });
    const lead = await getDb().db.selectFrom("intros").select("created_at").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(Date.parse(String(lead.created_at))).toBe(Date.parse(actedAt));
  });

  it("measures from the first load of the visit: a form right after a reload is a person's, one right after a new visit's first load is not", async () => {
    const project = await createProject(getDb().db);
    const { cookie, openedAt, fingerprint } = await openPage(project.id);
    // Read for two minutes, reloaded, the intro sent half a second later: the reload is no new reading.
    await loadAgain(project.id, fingerprint, openedAt + 120_000);
    const intro = form(project.id, cookie, "intro", { name: "Reload Rita", email: "rita@example.com", note: "Hello" });
    expect(await handleVisitorSubmission(services(), intro, new Date(openedAt + 120_500))).not.toMatchObject({ held: true });
    // Back an hour later (a new visit), the form sent at once after that load.
    const backAt = openedAt + 120_000 + VISIT_GAP_MS + 60_000;
    await loadAgain(project.id, fingerprint, backAt);
    const again = form(project.id, cookie, "subscribe", { name: "Reload Rita", email: "rita@example.com", consent: "on" });
    expect(await handleVisitorSubmission(services(), again, new Date(backAt + 500))).toEqual({ message: HELD_MESSAGE, held: true });
  });

  it("keeps an offline form's own time while it is held, and accepting it dates the lead then, not when it arrived", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const { cookie, openedAt } = await openPage(project.id);
    // Filled in a minute after opening, kept offline for an hour, sent with the hidden field filled by an autofill.
    const actedAt = new Date(openedAt + 60_000);
    const arrivedAt = new Date(openedAt + 60 * 60_000);
    const intro = form(project.id, cookie, "intro", { name: "Offline Otto", email: "otto@example.com", note: "From the train" }, { actedAt: actedAt.toISOString(), honeypot: "x" });
    expect(await handleVisitorSubmission(services(), intro, arrivedAt)).toEqual({ message: HELD_MESSAGE, held: true });
    const [held] = (await listHeldSubmissions(db, project.ownerId, project.id)).held;
    await acceptHeldSubmission(services(), project.ownerId, project.id, held!.id);
    const lead = await db.selectFrom("leads").select(["first_seen_at"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(lead.first_seen_at).toBe(actedAt.toISOString());
    const written = await db.selectFrom("intros").select(["created_at"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(written.created_at).toBe(actedAt.toISOString());
  });

  it("holds a form that claims to be filled in before any page load it could come from, sent right after the page loaded", async () => {
    const project = await createProject(getDb().db);
    const { cookie, openedAt } = await openPage(project.id);
    const actedAt = new Date(openedAt - 60 * 60 * 1000).toISOString();
    const intro = form(project.id, cookie, "intro", { name: "Time Traveller", email: "tt@example.com", note: "Buy now" }, { actedAt });
    expect(await handleVisitorSubmission(services(), intro, new Date(openedAt + 500))).toEqual({ message: HELD_MESSAGE, held: true });
    const { held } = await listHeldSubmissions(getDb().db, project.ownerId, project.id);
    expect(held.map((item) => item.reasonText)).toEqual(["Sent 0.5 seconds after the page was opened"]);
  });

  it("holds a form whose hidden field is filled in; accepting it makes a lead as of when it was sent, with its alert, webhook and mail", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await addWebhook(project.id, project.ownerId);
    const { cookie, openedAt } = await openPage(project.id);
    const sentAt = new Date(openedAt + 40_000);
    const intro = form(project.id, cookie, "intro", { name: "Ada Real", email: "Ada.Real@example.com", note: "Met you at the booth", roleTags: ["Angel"] }, { honeypot: "http://autofill.example" });
    expect(await handleVisitorSubmission(services(), intro, sentAt)).toEqual({ message: HELD_MESSAGE, held: true });
    const [held] = (await listHeldSubmissions(db, project.ownerId, project.id)).held;
    expect(held).toMatchObject({ name: "Ada Real", email: "ada.real@example.com", reasonText: "The hidden field only scripts see was filled in", sent: [{ label: "Intro request", value: "Met you at the booth" }, { label: "Roles", value: "Angel" }] });

    await expect(acceptHeldSubmission(services(), project.ownerId, project.id, held!.id)).resolves.toEqual({ name: "Ada Real" });
    const lead = await db.selectFrom("leads").select(["email", "first_seen_at", "last_activity_at"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(lead).toEqual({ email: "ada.real@example.com", first_seen_at: sentAt.toISOString(), last_activity_at: sentAt.toISOString() });
    const written = await db.selectFrom("intros").select(["created_at", "note", "source"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(written).toEqual({ created_at: sentAt.toISOString(), note: "Met you at the booth", source: "direct" });
    expect(await traces(project.id, project.ownerId)).toMatchObject({ leads: 1, contacts: 1, intros: 1, webhooks: 1, totals: [1, 0, 0, 1] });
    // The intro's copy goes to the visitor now, and the founder's alert, as a form's would have on sending.
    const founder = await db.selectFrom("users").select("email").where("id", "=", project.ownerId).executeTakeFirstOrThrow();
    expect((await traces(project.id, project.ownerId, ["ada.real@example.com"])).mails).toBe(1);
    expect((await traces(project.id, project.ownerId, [founder.email])).mails + (await traces(project.id, project.ownerId)).alerts).toBe(1);
    expect((await loadProjectAnalytics(db, project.ownerId, project.id)).heldForReview).toBe(0);
    // Accepted once: a second accept (another tab) is told it is gone and writes nothing.
    await expect(acceptHeldSubmission(services(), project.ownerId, project.id, held!.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await traces(project.id, project.ownerId)).toMatchObject({ leads: 1, intros: 1, webhooks: 1 });
  });

  it("accepts a held subscription and signal as of their time: welcome, confirmation and wall entry follow", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const tier = await db.selectFrom("signal_tiers").select(["id", "range_label"]).where("project_id", "=", project.id).orderBy("sort_order").executeTakeFirstOrThrow();
    const { cookie, openedAt } = await openPage(project.id);
    const at = new Date(openedAt + 1_000);
    await handleVisitorSubmission(services(), form(project.id, cookie, "subscribe", { name: "Sam Quick", email: "sam@example.com", consent: "on" }), at);
    await handleVisitorSubmission(services(), form(project.id, cookie, "signal", { name: "Sam Quick", email: "sam@example.com", tierId: tier.id, showName: "on", message: "Keen" }), at);
    const held = (await listHeldSubmissions(db, project.ownerId, project.id)).held;
    expect(held.map((item) => item.intent).sort()).toEqual(["signal", "subscribe"]);
    expect(held.find((item) => item.intent === "signal")!.sent).toEqual([
      { label: "Signal of interest", value: tier.range_label },
      { label: "Message", value: "Keen" },
      { label: "On the wall", value: "Name shown" },
    ]);
    expect(await traces(project.id, project.ownerId, ["sam@example.com"])).toMatchObject({ leads: 0, signals: 0, wall: 0, mails: 0, totals: [0, 0, 0, 0] });

    for (const item of held) await acceptHeldSubmission(services(), project.ownerId, project.id, item.id);
    // The welcome and the signal's confirmation go out on accepting.
    expect(await traces(project.id, project.ownerId, ["sam@example.com"])).toMatchObject({ leads: 1, signals: 1, wall: 1, mails: 2, totals: [0, 1, 1, 1] });
    const signal = await db.selectFrom("signals").select("created_at").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(signal.created_at).toBe(at.toISOString());
    const contact = await db.selectFrom("contacts").select(["subscribed", "created_at"]).where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(contact).toEqual({ subscribed: true, created_at: at.toISOString() });
  });

  it("discards a held form without a trace in any count, and only the project's owner may see, accept or discard", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const stranger = await createUser(db);
    const { cookie, openedAt } = await openPage(project.id);
    await handleVisitorSubmission(services(), subscribe(project.id, cookie, 1), new Date(openedAt + 15_000));
    const before = await traces(project.id, project.ownerId, ["walkup1@example.com", "spam@example.com"]);
    await handleVisitorSubmission(services(), form(project.id, cookie, "subscribe", { name: "Spam", email: "spam@example.com", consent: "on" }, { honeypot: "x" }), new Date(openedAt + 30_000));
    const [held] = (await listHeldSubmissions(db, project.ownerId, project.id)).held;

    await expect(listHeldSubmissions(db, stranger, project.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(acceptHeldSubmission(services(), stranger, project.id, held!.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(discardHeldSubmission(db, stranger, project.id, held!.id)).rejects.toMatchObject({ code: "not_found" });
    const otherProject = await createProject(db, { ownerId: stranger });
    await expect(discardHeldSubmission(db, stranger, otherProject.id, held!.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await loadProjectAnalytics(db, project.ownerId, project.id)).heldForReview).toBe(1);

    await discardHeldSubmission(db, project.ownerId, project.id, held!.id);
    expect((await listHeldSubmissions(db, project.ownerId, project.id)).held).toEqual([]);
    expect(await traces(project.id, project.ownerId, ["walkup1@example.com", "spam@example.com"])).toEqual(before);
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect([analytics.heldForReview, analytics.refusedLastWeek]).toEqual([0, 0]);
  });

  it("never holds the owner's own forms, however fast", async () => {
    const project = await createProject(getDb().db);
    const { cookie, openedAt } = await openPage(project.id);
    const answers = [];
    for (let index = 0; index < 8; index += 1) {
      answers.push(await handleVisitorSubmission(services(), { ...subscribe(project.id, cookie, index), visitor: { userId: project.ownerId } }, new Date(openedAt + 100)));
    }
    expect(answers.filter((answer) => answer.held)).toEqual([]);
    expect((await loadProjectAnalytics(getDb().db, project.ownerId, project.id)).totalSubscribers).toBe(8);
  });

  it("refuses and tallies what one browser sends beyond the hourly ceiling on held forms, storing nothing more", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const { cookie, openedAt } = await openPage(project.id);
    const ceiling = HELD_FORM_CEILINGS.perBrowser.max;
    for (let index = 0; index < ceiling; index += 1) {
      const spam = form(project.id, cookie, "subscribe", { name: "Spam", email: `spam${index}@example.com`, consent: "on" }, { honeypot: "x" });
      expect(await handleVisitorSubmission(services(), spam, new Date(openedAt + 10_000 + index))).toMatchObject({ held: true });
    }
    const beyond = form(project.id, cookie, "subscribe", { name: "Spam", email: "spam-beyond@example.com", consent: "on" }, { honeypot: "x" });
    await expect(handleVisitorSubmission(services(), beyond, new Date(openedAt + 20_000))).rejects.toMatchObject({
      code: "rate_limited",
      message: HELD_FORM_CEILINGS.perBrowser.message,
    });
    expect(await countFormRefusals(db, project.id, new Date(0))).toBe(1);
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect([analytics.heldForReview, analytics.refusedLastWeek, analytics.totalSubscribers]).toEqual([ceiling, 1, 0]);
  });
});
