import { expect, it } from "vitest";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { validate } from "~/modules/forms/validation";
import { leadAlertSettingsSchema } from "~/modules/leads/inbox/lead-alert-form";
import { getLeadAlertSettings, LeadAlertScheduler, queueLeadAlertBatch, saveLeadAlertSettings, sendLeadAlertSummaries } from "~/modules/leads/inbox/lead-alerts.server";
import { updateLeadTriage } from "~/modules/leads/inbox/lead-triage.server";
import { createLogger } from "~/modules/logging/logger.server";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { recordScans } from "~/modules/scans/scans.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { signalSchema } from "~/modules/signals/signal-form";
import { recordSignal } from "~/modules/signals/signals.server";
import { latestDailySlot } from "~/modules/time/zoned-slots";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

type Db = TestDatabase["db"];
const anonymous = { userId: null };

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

async function founderProject(db: Db) {
  const ownerId = await createUser(db, { email: `founder-${crypto.randomUUID().slice(0, 8)}@example.com` });
  return createProject(db, { ownerId });
}

const intro = (db: Db, projectId: string, name: string, email: string) =>
  submitIntro(db, testMailLinks, projectId, parse(introSchema, { name, email, note: "Happy to help", roleTags: ["Angel"] }), anonymous);
const signal = (db: Db, projectId: string, tierId: string, name: string, email: string) =>
  recordSignal(db, testMailLinks, projectId, parse(signalSchema, { tierId, name, email, showName: "on" }), anonymous);


async function founderMail(db: Db, ownerId: string) {
  const { email } = await db.selectFrom("users").select("email").where("id", "=", ownerId).executeTakeFirstOrThrow();
  return db.selectFrom("mail_outbox").select(["kind", "subject", "text_body", "html_body"]).where("recipient", "=", email).orderBy("created_at").execute();
}

describeEachDialect("founder alerts per project", (getDb) => {
  it("sends an alert per intro and per signal by default, and none when turned off", async () => {
    const { db } = getDb();
    const project = await founderProject(db);
    expect(await getLeadAlertSettings(db, project.ownerId, project.id)).toEqual({ introAlerts: "instant", signalAlerts: "instant" });
    await intro(db, project.id, "Ada", "ada@example.com");
    await signal(db, project.id, project.tiers[0]!.id, "Bo", "bo@example.com");
    // Which alerts were queued, in any order: two made in one millisecond may be read back either way.
    const alertKinds = async () => (await founderMail(db, project.ownerId)).map((mail) => mail.kind).sort();
    expect(await alertKinds()).toEqual(["intro-alert", "signal-alert"]);

    await saveLeadAlertSettings(db, project.ownerId, project.id, { introAlerts: "off", signalAlerts: "instant" });
    await intro(db, project.id, "Cy", "cy@example.com");
    await signal(db, project.id, project.tiers[0]!.id, "Di", "di@example.com");
    expect(await alertKinds()).toEqual(["intro-alert", "signal-alert", "signal-alert"]);
    // The visitor's own confirmation does not depend on the founder's choice.
    expect(await db.selectFrom("mail_outbox").select("kind").where("recipient", "=", "di@example.com").execute()).toEqual([{ kind: "signal-confirmation" }]);
  });

  it("names where the visitor came from in the intro alert, as the signal alert does", async () => {
    const { db } = getDb();
    const project = await founderProject(db);
    const booth = await createQrCode(db, project.ownerId, project.id, { label: "Booth", eventTag: "Demo Day" });
    const came = (viewer: string) => ({ userId: null, identity: { viewerFingerprint: `${viewer}-${project.id}`, addressHash: null } });
    await recordScans(db, ["ada", "bo"].map((viewer) => ({ projectId: project.id, qrCodeId: booth.id, viewerFingerprint: `${viewer}-${project.id}` })));
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ada", email: "ada@example.com", note: "Hi" }), came("ada"));
    await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Bo", email: "bo@example.com" }), came("bo"));
    await intro(db, project.id, "Cy", "cy@example.com");

    const mails = await founderMail(db, project.ownerId);
    const alertOf = (kind: string, name: string) => mails.find((mail) => mail.kind === kind && mail.text_body.includes(name))!;
    expect(alertOf("intro-alert", "Ada").text_body).toContain("- Met at: Booth · Demo Day");
    expect(alertOf("signal-alert", "Bo").text_body).toContain("- Met at: Booth · Demo Day");
    // A visitor of no known code has no such line.
    expect(alertOf("intro-alert", "Cy").text_body).not.toContain("Met at");
  });

  it("keeps intros and signals for one daily summary per project, sent once per day, never with the private note", async () => {
    const { db } = getDb();
    const project = await founderProject(db);
    await saveLeadAlertSettings(db, project.ownerId, project.id, { introAlerts: "daily", signalAlerts: "daily" });
    await intro(db, project.id, "Ada <script>alert(1)</script>", "ada@example.com");
    await signal(db, project.id, project.tiers[0]!.id, "Bo", "bo@example.com");
    const lead = await db.selectFrom("leads").select("id").where("project_id", "=", project.id).where("email", "=", "ada@example.com").executeTakeFirstOrThrow();
    await updateLeadTriage(db, project.ownerId, project.id, { leadId: lead.id, status: "contacted", note: "PRIVATE-NOTE-123" });
    expect(await founderMail(db, project.ownerId)).toEqual([]);

    const slot = latestDailySlot(new Date(Date.now() + 86_400_000), 9, "UTC");
    const run = await sendLeadAlertSummaries(db, testMailLinks, slot);
    expect(run?.messages).toBeGreaterThanOrEqual(1);
    expect(await sendLeadAlertSummaries(db, testMailLinks, slot)).toBeNull();
    const [summary, ...rest] = await founderMail(db, project.ownerId);
    expect(rest).toEqual([]);
    expect(summary).toMatchObject({ kind: "lead-alert-summary", subject: "Daily summary for Harbor Cold Chain: 1 intro request and 1 interest signal" });
    expect(summary!.text_body).toContain("Intro request: Ada <script>alert(1)</script> <ada@example.com> (Angel)");
    expect(summary!.text_body).toContain("Signal: Bo <bo@example.com>, Angel ($5k-$25k)");
    expect(summary!.text_body).toContain(`https://pitch.example/project/${project.id}/leads`);
    // Each line links to its person in the inbox.
    const bo = await db.selectFrom("leads").select("id").where("project_id", "=", project.id).where("email", "=", "bo@example.com").executeTakeFirstOrThrow();
    for (const { id } of [lead, bo]) {
      expect(summary!.text_body).toContain(`Open in your leads: https://pitch.example/project/${project.id}/leads?lead=${id}`);
      expect(summary!.html_body).toContain(`href="https://pitch.example/project/${project.id}/leads?lead=${id}"`);
    }
    expect(summary!.html_body).not.toContain("<script>");
    expect(summary!.html_body).toContain("&lt;script&gt;");
    // Who is still waiting for an answer (decision 55): Bo; Ada was contacted.
    const waitingPart = summary!.text_body.slice(summary!.text_body.indexOf("Still waiting for your answer, the longest first:"));
    expect(waitingPart).toMatch(new RegExp(`Bo, waiting \\d+ min\\n  Answer: https://pitch\\.example/project/${project.id}/leads\\?lead=${bo.id}`));
    expect(waitingPart).not.toContain("Ada");
    expect(waitingPart).toContain(`See everyone waiting: https://pitch.example/project/${project.id}/leads?view=unanswered`);
    const everything = await db.selectFrom("mail_outbox").select(["text_body", "html_body", "subject"]).execute();
    expect(JSON.stringify(everything)).not.toContain("PRIVATE-NOTE-123");
  });

  it("names the ten longest waiting of each project in its summary and counts the rest", async () => {
    const { db } = getDb();
    const [crowded, quiet] = [await founderProject(db), await founderProject(db)];
    for (const project of [crowded, quiet]) await saveLeadAlertSettings(db, project.ownerId, project.id, { introAlerts: "daily", signalAlerts: "daily" });
    const start = Date.UTC(2026, 10, 20, 9, 0);
    for (let i = 1; i <= 12; i += 1) {
      const name = `P${String(i).padStart(2, "0")}`;
      await submitIntro(db, testMailLinks, crowded.id, parse(introSchema, { name, email: `${name.toLowerCase()}@example.com`, note: "Hi" }), {
        userId: null,
        sent: { at: new Date(start + i * 60_000) },
      });
    }
    await intro(db, quiet.id, "Solo", "solo@example.com");

    // A day of its own, so no other test in this database has claimed the slot.
    await sendLeadAlertSummaries(db, testMailLinks, latestDailySlot(new Date(Date.UTC(2033, 0, 10 + Math.floor(Math.random() * 300), 10)), 9, "UTC"));
    const waitingPart = async (ownerId: string) => {
      const [summary] = await founderMail(db, ownerId);
      return summary!.text_body.slice(summary!.text_body.indexOf("Still waiting for your answer"));
    };
    const crowdedList = await waitingPart(crowded.ownerId);
    expect([...crowdedList.matchAll(/^- (P\d\d), waiting/gm)].map((match) => match[1])).toEqual(["P01", "P02", "P03", "P04", "P05", "P06", "P07", "P08", "P09", "P10"]);
    expect(crowdedList).toContain("And 2 more.");
    const quietList = await waitingPart(quiet.ownerId);
    expect([...quietList.matchAll(/^- (\w+), waiting/gm)].map((match) => match[1])).toEqual(["Solo"]);
    expect(quietList).not.toContain("more.");
  });

  it("runs the day's summary from the scheduler once, at the configured hour", async () => {
    const { db } = getDb();
    const project = await founderProject(db);
    await saveLeadAlertSettings(db, project.ownerId, project.id, { introAlerts: "daily", signalAlerts: "off" });
    await intro(db, project.id, "Ada", "ada@example.com");
    await signal(db, project.id, project.tiers[0]!.id, "Bo", "bo@example.com");
    // A clock a few days ahead, so this test's slot is one no other test in this database has claimed.
    let now = new Date(Date.UTC(2031, 0, 10 + Math.floor(Math.random() * 300), 8, 59));
    let woken = 0;
    const scheduler = new LeadAlertScheduler(db, testMailLinks, { hour: 9, timeZone: "UTC" }, createLogger("silent"), {
      clock: () => now,
      onMailQueued: () => (woken += 1),
    });
    const first = await scheduler.runOnce();
    now = new Date(now.getTime() + 2 * 60_000);
    const second = await scheduler.runOnce();
    expect(second?.slot).toBe(now.toISOString().slice(0, 10));
    expect(await scheduler.runOnce()).toBeNull();
    expect(first?.slot).not.toBe(second?.slot);
    const mails = await founderMail(db, project.ownerId);
    expect(mails.map((mail) => mail.kind)).toEqual(["lead-alert-summary"]);
    expect(mails[0]!.text_body).toContain("Ada");
    expect(mails[0]!.text_body).not.toContain("Signal: Bo");
    expect(woken).toBeGreaterThanOrEqual(1);
  });

  it("validates the choices and keeps them owner-only", async () => {
    const { db } = getDb();
    const project = await founderProject(db);
    expect(validate(leadAlertSettingsSchema, { introAlerts: "hourly", signalAlerts: "off" })).toMatchObject({ ok: false, fieldErrors: { introAlerts: expect.any(String) } });
    const intruder = await createUser(db);
    await expect(saveLeadAlertSettings(db, intruder, project.id, { introAlerts: "off", signalAlerts: "off" })).rejects.toMatchObject({ code: "not_found" });
    await expect(getLeadAlertSettings(db, intruder, project.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await getLeadAlertSettings(db, project.ownerId, project.id)).toEqual({ introAlerts: "instant", signalAlerts: "instant" });
  });

  it("queues the summaries a batch of projects at a time; a run stopped between batches is continued, each founder mailed once", async () => {
    const { db } = getDb();
    const projects = [await founderProject(db), await founderProject(db), await founderProject(db)];
    for (const project of projects) {
      await saveLeadAlertSettings(db, project.ownerId, project.id, { introAlerts: "daily", signalAlerts: "off" });
      await intro(db, project.id, "Ada", `ada-${crypto.randomUUID().slice(0, 8)}@example.com`);
    }
    const slot = latestDailySlot(new Date(Date.UTC(2032, 0, 10 + Math.floor(Math.random() * 300), 10)), 9, "UTC");
    const summaries = async (ownerId: string) => (await founderMail(db, ownerId)).filter((mail) => mail.kind === "lead-alert-summary");

    // The app shuts down as the run starts: claimed, nothing queued yet.
    const shutdown = new AbortController();
    shutdown.abort();
    expect(await sendLeadAlertSummaries(db, testMailLinks, slot, new Date(), { stopping: shutdown.signal })).toEqual({ slot: slot.slot, messages: 0, finished: false });
    expect(await sendLeadAlertSummaries(db, testMailLinks, slot)).toBeNull();
    // One batch of one project commits, then the restarted app continues with the rest.
    expect(await queueLeadAlertBatch(db, testMailLinks, slot, 1)).toBe(1);
    const resumed = await sendLeadAlertSummaries(db, testMailLinks, slot, new Date(), { resume: true, batchSize: 1 });
    expect(resumed).toMatchObject({ slot: slot.slot, finished: true });
    expect(resumed!.messages).toBeGreaterThanOrEqual(2);
    for (const project of projects) expect(await summaries(project.ownerId)).toHaveLength(1);
    expect(await sendLeadAlertSummaries(db, testMailLinks, slot, new Date(), { resume: true })).toBeNull();
  });
});
