// Replies and captures are no mail relay (decision 77): per account and per project limits counted from the rows,
// a stricter daily cap for people only met in person, refusals that change and send nothing, and a reply mail that
// names who sent it and why the recipient gets it.
import type { Kysely } from "kysely";
import pino from "pino";
import { expect, it } from "vitest";
import type { Database } from "~/db/schema";
import type { ProjectRole } from "~/modules/access/roles";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { captureSchema, type CaptureInput } from "~/modules/leads/capture/capture-form";
import { captureLead } from "~/modules/leads/capture/lead-captures.server";
import { sendLeadReply, type ReplyingFounder } from "~/modules/leads/replies/lead-replies.server";
import { CAPTURE_LIMITS, REPLY_LIMITS } from "~/modules/leads/outreach-limits.server";
import { leadReplySchema } from "~/modules/leads/replies/reply-form";
import { MailWorker } from "~/modules/mail/mail-worker.server";
import { createSmtpTransport } from "~/modules/mail/transport.server";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { acceptTeamInvitation, inviteToTeam } from "~/modules/team/team.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";
import { startSmtpServer } from "../support/smtp";

type Db = Kysely<Database>;
const NOW = new Date("2030-01-15T09:00:00.000Z");
const SECOND = 1_000;
const HOUR = 3_600_000;
const logger = pino({ level: "silent" });

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

const reply = (subject = "Hello") => parse(leadReplySchema, { subject, body: "Hi there" });
const capture = (fields: Record<string, unknown> = {}): CaptureInput =>
  parse(captureSchema, { key: crypto.randomUUID(), codeId: "plain", name: "Met Person", email: `met-${crypto.randomUUID().slice(0, 8)}@example.com`, ...fields });

async function founderOf(db: Db, id: string): Promise<ReplyingFounder> {
  const user = await db.selectFrom("users").select(["name", "email"]).where("id", "=", id).executeTakeFirstOrThrow();
  return { id, name: user.name, email: user.email, timeZone: "Europe/Berlin" };
}

/** A project with one lead who asked for an intro on its pitch page (a form of their own). */
async function projectWithIntro(db: Db, ownerId?: string) {
  const project = await createProject(db, { ownerId, title: "Harbor Cold Chain" });
  const email = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ada Lovelace", email, note: "Let's talk" }), { userId: null });
  const { id } = await db.selectFrom("leads").select("id").where("project_id", "=", project.id).where("email", "=", email).executeTakeFirstOrThrow();
  return { project, lead: { id, email }, owner: await founderOf(db, project.ownerId) };
}

/** A new member of the project's team, joined the way a person joins (invited, link accepted). */
async function member(db: Db, project: { id: string; ownerId: string }, role: Exclude<ProjectRole, "owner"> = "staff") {
  const email = `${role}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const id = await createUser(db, { email });
  await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email, role }));
  const mail = await db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
  await acceptTeamInvitation(db, { id, email }, /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!);
  return founderOf(db, id);
}

/** `count` replies from `founder` to `leadId`, one a second from `start`. */
async function replies(db: Db, founder: ReplyingFounder, projectId: string, leadId: string, count: number, start: Date) {
  for (let i = 0; i < count; i++) await sendLeadReply(db, testMailLinks, founder, projectId, leadId, reply(), new Date(start.getTime() + i * SECOND));
}

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

async function replyRows(db: Db, projectId: string) {
  const followUps = await db.selectFrom("lead_follow_ups").select("id").where("project_id", "=", projectId).where("kind", "=", "reply").execute();
  return followUps.length;
}

async function replyMailsTo(db: Db, email: string) {
  return (await db.selectFrom("mail_outbox").select("id").where("recipient", "=", email).where("kind", "=", "lead-reply").execute()).length;
}

describeEachDialect("replies and captures are no mail relay", (getDb) => {
  it("an account's 31st reply within an hour is refused, saying when; nothing is sent or recorded; an hour after the first it goes", async () => {
    const { db } = getDb();
    const { project, lead, owner } = await projectWithIntro(db);
    expect(REPLY_LIMITS.perAccountHour.max).toBe(30);
    await replies(db, owner, project.id, lead.id, 30, NOW);
    const statusBefore = await db.selectFrom("leads").select(["status", "triaged_at"]).where("id", "=", lead.id).executeTakeFirstOrThrow();

    const refused = await refusal(sendLeadReply(db, testMailLinks, owner, project.id, lead.id, reply("One too many"), new Date(NOW.getTime() + 40 * SECOND)));
    expect(refused).toMatchObject({
      code: "rate_limited",
      message: "You have sent 30 replies in the last hour, the most one account may send. You can reply again from Jan 15, 2030, 11:00 AM (Europe/Berlin).",
      retryAfterSeconds: 3600 - 40,
    });
    expect(await replyRows(db, project.id)).toBe(30);
    expect(await replyMailsTo(db, lead.email)).toBe(30);
    expect(await db.selectFrom("lead_follow_ups").select("id").where("subject", "=", "One too many").execute()).toEqual([]);
    expect(await db.selectFrom("leads").select(["status", "triaged_at"]).where("id", "=", lead.id).executeTakeFirstOrThrow()).toEqual(statusBefore);

    // The first reply leaves the window an hour after it was sent: one place opens, and only one.
    await sendLeadReply(db, testMailLinks, owner, project.id, lead.id, reply(), new Date(NOW.getTime() + HOUR));
    await expect(sendLeadReply(db, testMailLinks, owner, project.id, lead.id, reply(), new Date(NOW.getTime() + HOUR + 0.5 * SECOND))).rejects.toMatchObject({ code: "rate_limited" });
  });

  it("the account's limit spans its projects, and a day's 100 replies end the day however they are spread", async () => {
    const { db } = getDb();
    const first = await projectWithIntro(db);
    const second = await projectWithIntro(db, first.project.ownerId);
    await replies(db, first.owner, first.project.id, first.lead.id, 30, NOW);
    await expect(sendLeadReply(db, testMailLinks, first.owner, second.project.id, second.lead.id, reply(), new Date(NOW.getTime() + 60 * SECOND))).rejects.toMatchObject({
      code: "rate_limited",
      message: expect.stringContaining("the most one account may send"),
    });
    // 30 an hour for three more hours passes 100 in the day (24 hours from the first).
    await replies(db, first.owner, second.project.id, second.lead.id, 30, new Date(NOW.getTime() + HOUR));
    await replies(db, first.owner, first.project.id, first.lead.id, 30, new Date(NOW.getTime() + 2 * HOUR));
    await replies(db, first.owner, second.project.id, second.lead.id, 10, new Date(NOW.getTime() + 3 * HOUR));
    const refused = await refusal(sendLeadReply(db, testMailLinks, first.owner, first.project.id, first.lead.id, reply(), new Date(NOW.getTime() + 3 * HOUR + 30 * SECOND)));
    expect(refused).toMatchObject({
      code: "rate_limited",
      message: "You have sent 100 replies in the last 24 hours, the most one account may send. You can reply again from Jan 16, 2030, 10:00 AM (Europe/Berlin).",
    });
    expect((await replyRows(db, first.project.id)) + (await replyRows(db, second.project.id))).toBe(REPLY_LIMITS.perAccountDay.max);
  });

  it("a project's team shares 60 replies an hour: a third member's first reply is refused once two members sent 30 each", async () => {
    const { db } = getDb();
    const { project, lead, owner } = await projectWithIntro(db);
    const cofounder = await member(db, project, "co-founder");
    const staff = await member(db, project, "staff");
    await replies(db, owner, project.id, lead.id, 30, NOW);
    await replies(db, cofounder, project.id, lead.id, 30, new Date(NOW.getTime() + 30 * SECOND));
    const refused = await refusal(sendLeadReply(db, testMailLinks, staff, project.id, lead.id, reply(), new Date(NOW.getTime() + 2 * 60 * SECOND)));
    expect(refused).toMatchObject({
      code: "rate_limited",
      message: "This project's team has sent 60 replies in the last hour, the most one project may send. You can reply again from Jan 15, 2030, 11:00 AM (Europe/Berlin).",
    });
    expect(await replyRows(db, project.id)).toBe(REPLY_LIMITS.perProjectHour.max);
    // The staff member's own allowance is untouched: on another project of theirs they reply at once.
    const own = await projectWithIntro(db, staff.id);
    await sendLeadReply(db, testMailLinks, staff, own.project.id, own.lead.id, reply(), new Date(NOW.getTime() + 2 * 60 * SECOND));
  });

  it("replies to people only met in person stop at 20 a day per account and 40 per project, while people who sent a form can still be answered", async () => {
    const { db } = getDb();
    const { project, lead: intro, owner } = await projectWithIntro(db);
    const met = await captureLead(db, owner.id, project.id, capture(), new Date(NOW.getTime() - HOUR));
    // 20 over the day, a few an hour, none near the hourly limits.
    for (let i = 0; i < 20; i++) await sendLeadReply(db, testMailLinks, owner, project.id, met.leadId, reply(), new Date(NOW.getTime() + i * 10 * 60 * SECOND));
    const at = new Date(NOW.getTime() + 4 * HOUR);
    const refused = await refusal(sendLeadReply(db, testMailLinks, owner, project.id, met.leadId, reply("Met again"), at));
    expect(refused).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/^You have sent 20 replies in the last 24 hours to people who never used your pitch page themselves/) });
    expect((refused as Error).message).toContain("You can reply to them again from Jan 16, 2030, 10:00 AM (Europe/Berlin)");
    expect(await db.selectFrom("lead_follow_ups").select("id").where("subject", "=", "Met again").execute()).toEqual([]);
    // An intro's lead is answered as usual.
    await sendLeadReply(db, testMailLinks, owner, project.id, intro.id, reply(), at);

    // The team's 40: a co-founder sends 20 more, then a staff member's first is refused by the project's cap.
    const cofounder = await member(db, project, "co-founder");
    const staff = await member(db, project, "staff");
    for (let i = 0; i < 20; i++) await sendLeadReply(db, testMailLinks, cofounder, project.id, met.leadId, reply(), new Date(at.getTime() + (i + 1) * 60 * SECOND));
    await expect(sendLeadReply(db, testMailLinks, staff, project.id, met.leadId, reply(), new Date(at.getTime() + HOUR))).rejects.toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/^This project's team has sent 40 replies in the last 24 hours to people who never used the pitch page themselves/),
    });
    const counted = await db.selectFrom("lead_follow_ups").select("id").where("project_id", "=", project.id).where("to_met_only", "=", true).execute();
    expect(counted).toHaveLength(REPLY_LIMITS.metOnlyPerProjectDay.max);
  });

  it("60 strangers captured and sent a 'password expires' reply at once: 20 mails go, 40 are refused", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const owner = await founderOf(db, project.ownerId);
    const strangers = await Promise.all(Array.from({ length: 60 }, () => captureLead(db, owner.id, project.id, capture(), NOW)));
    const phishing = parse(leadReplySchema, { subject: "Your password expires today", body: "Sign in at https://evil.example/login" });
    const results = await Promise.allSettled(strangers.map((stranger) => sendLeadReply(db, testMailLinks, owner, project.id, stranger.leadId, phishing, NOW)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(REPLY_LIMITS.metOnlyPerAccountDay.max);
    expect(results.filter((result) => result.status === "rejected" && (result.reason as { code?: string }).code === "rate_limited")).toHaveLength(40);
    const mails = await db.selectFrom("mail_outbox").select("id").where("kind", "=", "lead-reply").where("subject", "=", "Your password expires today").execute();
    expect(mails).toHaveLength(20);
  });

  it("replies sent at once are counted one after the other: 40 at the same moment send exactly 30", async () => {
    const { db } = getDb();
    const { project, lead, owner } = await projectWithIntro(db);
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => sendLeadReply(db, testMailLinks, owner, project.id, lead.id, reply(), NOW)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(30);
    const rejected = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect(rejected.map((result) => (result.reason as { code?: string }).code)).toEqual(Array(10).fill("rate_limited"));
    expect(await replyRows(db, project.id)).toBe(30);
    expect(await replyMailsTo(db, lead.email)).toBe(30);
  });

  it("an account adds at most 60 people an hour and a project 150: the refused one saves nothing, a repeat of a saved one is still answered", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const owner = await founderOf(db, project.ownerId);
    const first = capture();
    await captureLead(db, owner.id, project.id, first, NOW);
    for (let i = 1; i < CAPTURE_LIMITS.perAccountHour.max; i++) await captureLead(db, owner.id, project.id, capture(), new Date(NOW.getTime() + i * SECOND));
    const leadsBefore = await db.selectFrom("leads").select("id").where("project_id", "=", project.id).execute();

    const extra = capture({ email: "one-too-many@example.com" });
    const refused = await refusal(captureLead(db, owner.id, project.id, extra, new Date(NOW.getTime() + 90 * SECOND)));
    expect(refused).toMatchObject({
      code: "rate_limited",
      message: "You have added 60 people in the last hour, the most one account may add. You can add more from Jan 15, 2030, 10:00 AM (UTC).",
      retryAfterSeconds: 3600 - 90,
    });
    expect(await db.selectFrom("leads").select("id").where("project_id", "=", project.id).execute()).toHaveLength(leadsBefore.length);
    expect(await db.selectFrom("lead_captures").select("id").where("email", "=", "one-too-many@example.com").execute()).toEqual([]);
    // The device's first capture sent again (its answer was lost) is answered as it was.
    expect(await captureLead(db, owner.id, project.id, first, new Date(NOW.getTime() + 91 * SECOND))).toMatchObject({ merged: false });

    const a = await member(db, project, "co-founder");
    const b = await member(db, project, "staff");
    for (let i = 0; i < 60; i++) await captureLead(db, a.id, project.id, capture(), new Date(NOW.getTime() + (100 + i) * SECOND));
    for (let i = 0; i < 30; i++) await captureLead(db, b.id, project.id, capture(), new Date(NOW.getTime() + (200 + i) * SECOND));
    await expect(captureLead(db, b.id, project.id, capture(), new Date(NOW.getTime() + 300 * SECOND))).rejects.toMatchObject({
      code: "rate_limited",
      message: "This project's team has added 150 people in the last hour, the most one project may add. You can add more from Jan 15, 2030, 10:00 AM (UTC).",
    });
    expect(await db.selectFrom("lead_captures").select("id").where("project_id", "=", project.id).execute()).toHaveLength(CAPTURE_LIMITS.perProjectHour.max);
  });

  it("the reply mail names the founder and the project and why the recipient gets it, in the text and the HTML", async () => {
    const { db } = getDb();
    const { project, lead: intro, owner } = await projectWithIntro(db);
    await db.updateTable("users").set({ name: "Grace Hopper" }).where("id", "=", owner.id).execute();
    const founder = { ...owner, name: "Grace Hopper" };
    const booth = await createQrCode(db, owner.id, project.id, { label: "Booth", eventTag: "Demo Day Berlin" });
    const met = await captureLead(db, owner.id, project.id, capture({ codeId: booth.id, email: "met.person@example.com" }), new Date(NOW.getTime() - HOUR));
    await sendLeadReply(db, testMailLinks, founder, project.id, intro.id, parse(leadReplySchema, { subject: "Your password expires today", body: "Sign in at https://evil.example/login" }), NOW);
    await sendLeadReply(db, testMailLinks, founder, project.id, met.leadId, parse(leadReplySchema, { subject: "Good to meet you", body: "Hi <b>there</b>" }), NOW);
    const smtp = await startSmtpServer();
    const worker = new MailWorker(db, createSmtpTransport(smtp.url, "PitchQR <pitch@pitchqr.test>"), logger, { clock: () => NOW });
    try {
      await worker.runOnce();
      const received = (address: string, subject: string) =>
        smtp.received.find((mail) => mail.subject === subject && (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address === address)!;
      const toIntro = received(intro.email, "Your password expires today");
      expect(toIntro.text).toMatch(/^Grace Hopper of Harbor Cold Chain wrote to you:\n\nSign in at https:\/\/evil\.example\/login\n/);
      expect(toIntro.text).toContain(`This message is from Grace Hopper (${owner.email}) of Harbor Cold Chain, sent with PitchQR. PitchQR did not write it.`);
      expect(toIntro.text).toContain("You get it because you asked for an intro on the pitch page of Harbor Cold Chain.");
      expect(toIntro.html).toContain("Grace Hopper of Harbor Cold Chain wrote to you:");
      expect(toIntro.html).toContain("You get it because you asked for an intro on the pitch page of Harbor Cold Chain.");

      const toMet = received("met.person@example.com", "Good to meet you");
      expect(toMet.text).toContain("You get it because you met Grace Hopper of Harbor Cold Chain at Demo Day Berlin on Jan 15, 2030, who added your address.");
      expect(toMet.html).toContain("You get it because you met Grace Hopper of Harbor Cold Chain at Demo Day Berlin on Jan 15, 2030, who added your address.");
      // What the founder typed is text in the HTML, never markup.
      expect(toMet.html).toContain("Hi &lt;b&gt;there&lt;/b&gt;");
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });
});
