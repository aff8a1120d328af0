// The morning-after report (decision 66) with an injected clock: once per project across two
// instances, nothing on a day without scans, the week report, off per project, catch-up after downtime, who gets
// it, the CSV it carries, and who may turn it off. Every test uses its own days, so tests share one database.
import { text } from "node:stream/consumers";
import type { Kysely } from "kysely";
import pino from "pino";
import { expect, it } from "vitest";
import type { Database, MailAttachment } from "~/db/schema";
import type { ProjectRole } from "~/modules/access/roles";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { saveFounderTimeZone } from "~/modules/auth/founder-time-zone.server";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { captureSchema } from "~/modules/leads/capture/capture-form";
import { captureLead } from "~/modules/leads/capture/lead-captures.server";
import { validate } from "~/modules/forms/validation";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { MORNING_REPORT_MESSAGE, morningReportSchema } from "~/modules/reports/morning-report-form";
import { MorningReportScheduler } from "~/modules/reports/morning-report.server";
import { getMorningReportSetting, saveMorningReportSetting } from "~/modules/reports/morning-report-settings.server";
import { recordScans } from "~/modules/scans/scans.server";
import { signalSchema } from "~/modules/signals/signal-form";
import { recordSignal } from "~/modules/signals/signals.server";
import { acceptTeamInvitation, inviteToTeam } from "~/modules/team/team.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

const logger = pino({ level: "silent" });
const NINE = { hour: 9 };

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

async function memberWith(db: Kysely<Database>, project: { id: string; ownerId: string }, role: Exclude<ProjectRole, "owner">) {
  const email = `${role}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const id = await createUser(db, { email });
  await inviteToTeam(db, testMailLinks, project.ownerId, project.id, parse(teamInvitationSchema, { email, role }));
  const mail = await db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
  await acceptTeamInvitation(db, { id, email }, /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!);
  return { id, email };
}

/** A project with one printed code ('Booth' at 'Demo Day'), owned by a founder in `timeZone` (UTC unless given). */
async function eventProject(db: Kysely<Database>, timeZone?: string) {
  const ownerEmail = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const ownerId = await createUser(db, { email: ownerEmail });
  if (timeZone) await saveFounderTimeZone(db, ownerId, { timeZone });
  const title = `Harbor ${crypto.randomUUID().slice(0, 6)}`;
  const project = await createProject(db, { ownerId, title });
  const code = await createQrCode(db, ownerId, project.id, { label: "Booth", eventTag: "Demo Day" });
  return { ...project, title, ownerEmail, codeId: code.id };
}

async function scansAt(db: Kysely<Database>, project: { id: string; codeId: string }, at: string, viewers = ["ada", "bo"]) {
  await recordScans(
    db,
    viewers.map((viewer) => ({ projectId: project.id, qrCodeId: project.codeId, viewerFingerprint: `${viewer}-${project.id}` })),
    undefined,
    new Date(at),
  );
}

function scheduler(db: Kysely<Database>, at: string) {
  return new MorningReportScheduler(db, testMailLinks, NINE, logger, { clock: () => new Date(at) });
}

async function reportsOf(db: Kysely<Database>, projectTitle: string) {
  return db
    .selectFrom("mail_outbox")
    .select(["recipient", "subject", "text_body", "html_body", "attachments"])
    .where("kind", "=", "morning-report")
    .where("subject", "like", `%— ${projectTitle}`)
    .orderBy("recipient")
    .execute();
}

describeEachDialect("the morning-after report", (getDb) => {
  it("is queued once per project and recipient by two instances running at the same moment", async () => {
    const { db } = getDb();
    const project = await eventProject(db);
    const cofounder = await memberWith(db, project, "co-founder");
    await scansAt(db, project, "2026-03-10T14:00:00.000Z", ["ada", "bo", "cy"]);
    const at = "2026-03-11T09:00:30.000Z";

    const [first, second] = await Promise.all([scheduler(db, at).runOnce(), scheduler(db, at).runOnce()]);
    expect(first.reports + second.reports).toBe(1);
    await Promise.all([scheduler(db, at).runOnce(), scheduler(db, "2026-03-11T17:00:00.000Z").runOnce()]);

    const mails = await reportsOf(db, project.title);
    expect(mails.map((mail) => mail.recipient).sort()).toEqual([cofounder.email, project.ownerEmail].sort());
    expect(mails[0]!.subject).toBe(`Yesterday at Demo Day: 3 scans, 0 people acted — ${project.title}`);
    expect(mails[0]!.text_body).toContain("on Tuesday, March 10:");
    expect(mails[0]!.text_body).toContain(`https://pitch.example/project/${project.id}/analytics`);
    expect(mails[0]!.html_body).toContain(`href="https://pitch.example/project/${project.id}/analytics"`);
    const claims = await db.selectFrom("morning_reports").selectAll().where("project_id", "=", project.id).execute();
    expect(claims).toMatchObject([{ day: "2026-03-10", kind: "day", messages: 2 }]);
  });

  it("sends nothing on a day without scans, and nothing before the hour on the owner's clock", async () => {
    const { db } = getDb();
    const project = await eventProject(db, "America/Los_Angeles");
    // 23:30 on April 9 in Los Angeles is April 10 in UTC: the owner's day counts.
    await scansAt(db, project, "2026-04-10T06:30:00.000Z");

    await scheduler(db, "2026-04-10T15:30:00.000Z").runOnce(); // 08:30 on April 10 in Los Angeles: not yet
    expect(await reportsOf(db, project.title)).toEqual([]);
    await scheduler(db, "2026-04-10T16:05:00.000Z").runOnce(); // 09:05: the report on April 9
    expect((await reportsOf(db, project.title)).map((mail) => mail.subject)).toEqual([`Yesterday at Demo Day: 2 scans, 0 people acted — ${project.title}`]);
    await scheduler(db, "2026-04-11T16:05:00.000Z").runOnce(); // April 10 had no scans
    await scheduler(db, "2026-04-12T16:05:00.000Z").runOnce();
    expect(await reportsOf(db, project.title)).toHaveLength(1);
  });

  it("reports again seven days later on the day and the week after it, once for a two-day event", async () => {
    const { db } = getDb();
    const project = await eventProject(db);
    await scansAt(db, project, "2026-05-04T10:00:00.000Z");
    await scansAt(db, project, "2026-05-05T10:00:00.000Z", ["cy"]);
    await scansAt(db, project, "2026-05-08T10:00:00.000Z", ["dee"]);
    for (const day of ["05", "06", "07", "08", "09", "10", "11", "12", "13", "14"]) await scheduler(db, `2026-05-${day}T09:01:00.000Z`).runOnce();

    const subjects = (await reportsOf(db, project.title)).map((mail) => mail.subject);
    expect(subjects.filter((subject) => subject.startsWith("Yesterday"))).toHaveLength(3);
    expect(subjects.filter((subject) => subject.startsWith("A week after"))).toEqual([`A week after Demo Day: 4 scans, 0 people acted — ${project.title}`]);
    const claims = await db.selectFrom("morning_reports").select(["day", "kind"]).where("project_id", "=", project.id).orderBy("kind").orderBy("day").execute();
    expect(claims).toEqual([
      { day: "2026-05-04", kind: "day" },
      { day: "2026-05-05", kind: "day" },
      { day: "2026-05-08", kind: "day" },
      { day: "2026-05-04", kind: "week" },
    ]);
  });

  it("is not sent for a project that turned it off, and is again once it is on", async () => {
    const { db } = getDb();
    const project = await eventProject(db);
    expect(await getMorningReportSetting(db, project.ownerId, project.id)).toEqual({ enabled: true, mayChange: true });
    await saveMorningReportSetting(db, project.ownerId, project.id, { morningReport: "off" });
    await scansAt(db, project, "2026-06-01T10:00:00.000Z");
    await scheduler(db, "2026-06-02T09:05:00.000Z").runOnce();
    expect(await reportsOf(db, project.title)).toEqual([]);

    await saveMorningReportSetting(db, project.ownerId, project.id, { morningReport: "on" });
    await scheduler(db, "2026-06-02T09:06:00.000Z").runOnce();
    expect(await reportsOf(db, project.title)).toHaveLength(1);
  });

  it("catches up once after downtime, for the latest day only, and a restart does not send it again", async () => {
    const { db } = getDb();
    const project = await eventProject(db);
    await scansAt(db, project, "2026-07-01T10:00:00.000Z");
    await scansAt(db, project, "2026-07-02T10:00:00.000Z", ["cy"]);
    // Down from before 09:00 on July 2 until 15:00 on July 3: July 1's report was never sent and is not replayed.
    const back = scheduler(db, "2026-07-03T15:00:00.000Z");
    await back.runOnce();
    await back.runOnce();
    await scheduler(db, "2026-07-03T15:01:00.000Z").runOnce(); // restarted
    const claims = await db.selectFrom("morning_reports").select(["day", "kind"]).where("project_id", "=", project.id).execute();
    expect(claims).toEqual([{ day: "2026-07-02", kind: "day" }]);
    expect((await reportsOf(db, project.title)).map((mail) => mail.subject)).toEqual([`Yesterday at Demo Day: 1 scan, 0 people acted — ${project.title}`]);
  });

  it("goes to the owner and co-founders, never to staff or viewers, and carries the CSV the export downloads", async () => {
    const { db } = getDb();
    const project = await eventProject(db);
    const cofounder = await memberWith(db, project, "co-founder");
    await memberWith(db, project, "staff");
    await memberWith(db, project, "viewer");
    await scansAt(db, project, "2026-08-10T10:00:00.000Z", ["ada"]);
    const visitor = { userId: null, identity: { viewerFingerprint: `ada-${project.id}`, addressHash: null }, sent: { at: new Date("2026-08-10T10:05:00.000Z") } };
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ada Lovelace", email: `ada-${project.id.slice(0, 6)}@example.com`, note: "Let's talk" }), visitor);
    await recordSignal(
      db,
      testMailLinks,
      project.id,
      parse(signalSchema, { tierId: project.tiers[1]!.id, name: "Ada Lovelace", email: `ada-${project.id.slice(0, 6)}@example.com`, message: "Ready to lead" }),
      visitor,
    );
    await scheduler(db, "2026-08-11T09:05:00.000Z").runOnce();

    const mails = await reportsOf(db, project.title);
    expect(mails.map((mail) => mail.recipient).sort()).toEqual([cofounder.email, project.ownerEmail].sort());
    const mail = mails[0]!;
    expect(mail.subject).toBe(`Yesterday at Demo Day: 1 scan, 1 person acted — ${project.title}`);
    expect(mail.text_body).toContain("Ada Lovelace, waiting");
    expect(mail.text_body).toContain("1 scan · 1 person acted · 1 intro · 1 signal");
    expect(mail.text_body).toContain("Ada Lovelace: Lead ($1.0M+) “Ready to lead”");
    expect(mail.text_body).toMatch(/Booth · Demo Day\n {2}Scans that day: 1\n {2}Scans in all: 1\n {2}Unique viewers: 1\n {2}People who acted: 1 \(100%\)\n {2}Intros: 1\n {2}Follows: 0\n {2}Signals: 1\n {2}Saves: 0/);
    const exported = await exportContactsCsv(db, project.ownerId, project.id);
    const expected: MailAttachment = { filename: exported.fileName, contentType: "text/csv; charset=utf-8", content: await text(exported.body) };
    for (const sent of mails) expect(sent.attachments).toEqual([expected]);
    expect(expected.content).toContain("Ada Lovelace");
  });

  it("names the people met in person that day, the hottest first, and attaches them in the CSV", async () => {
    const { db } = getDb();
    const project = await eventProject(db);
    await scansAt(db, project, "2026-08-20T10:00:00.000Z", ["ada"]);
    const met = async (name: string, temperature: string | undefined, at: string, note?: string) =>
      captureLead(
        db,
        project.ownerId,
        project.id,
        parse(captureSchema, { key: crypto.randomUUID(), codeId: project.codeId, name, email: `${name.split(" ")[0]!.toLowerCase()}-${project.id.slice(0, 6)}@example.com`, temperature, note }),
        new Date(at),
      );
    await met("Bo Cold", "cold", "2026-08-20T11:00:00.000Z");
    const kenji = await met("Kenji Watanabe", "hot", "2026-08-20T15:00:00.000Z", "Wants a pilot");
    await met("Cy Tomorrow", "hot", "2026-08-21T08:00:00.000Z");
    // Met with only a LinkedIn URL (decision 92): listed like everyone met, with no e-mail in the CSV.
    const linkedInOnly = { key: crypto.randomUUID(), codeId: project.codeId, name: "Dee Linked", email: "", linkedinUrl: "https://www.linkedin.com/in/dee-linked", temperature: "warm" };
    await captureLead(db, project.ownerId, project.id, parse(captureSchema, linkedInOnly), new Date("2026-08-20T12:00:00.000Z"));
    await scheduler(db, "2026-08-21T09:05:00.000Z").runOnce();

    const [mail] = await reportsOf(db, project.title);
    expect(mail!.text_body).toContain(
      `Met in person this period, the hottest first:\n\n- Kenji Watanabe (Hot), met at Booth · Demo Day: Wants a pilot\n  Open the lead: ${testMailLinks.leadUrl(project.id, kenji.leadId)}\n- Dee Linked (Warm), met at Booth · Demo Day`,
    );
    expect(mail!.text_body).not.toContain("Cy Tomorrow");
    const [attachment] = mail!.attachments!;
    expect(attachment!.content).toMatch(/\r\nKenji Watanabe,kenji-[^,]+@example\.com,.*,Hot,.*,Booth · Demo Day: Wants a pilot,,0,0\r\n/);
    expect(attachment!.content).toContain("Bo Cold");
    expect(attachment!.content).toMatch(/\r\nDee Linked,,,,https:\/\/www\.linkedin\.com\/in\/dee-linked,/);
    expect(mail!.text_body).toMatch(/- Dee Linked \(Warm\), met at Booth · Demo Day\n {2}Open the lead: .+\n- Bo Cold \(Cold\)/);
  });

  it("is switched by the roles allowed the project's settings: staff refused, a stranger told nothing, a bad value changes nothing", async () => {
    const { db } = getDb();
    const project = await eventProject(db);
    const cofounder = await memberWith(db, project, "co-founder");
    const staff = await memberWith(db, project, "staff");
    const stranger = await createUser(db);

    await expect(saveMorningReportSetting(db, staff.id, project.id, { morningReport: "off" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(saveMorningReportSetting(db, stranger, project.id, { morningReport: "off" })).rejects.toMatchObject({ code: "not_found" });
    await expect(getMorningReportSetting(db, stranger, project.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await getMorningReportSetting(db, staff.id, project.id)).toEqual({ enabled: true, mayChange: false });

    for (const bad of [{ morningReport: "maybe" }, {}, { morningReport: ["on", "off"] }]) {
      const result = validate(morningReportSchema, bad);
      expect(result.ok ? null : result.fieldErrors.morningReport).toBe(MORNING_REPORT_MESSAGE);
    }
    expect((await getMorningReportSetting(db, project.ownerId, project.id)).enabled).toBe(true);

    await saveMorningReportSetting(db, cofounder.id, project.id, parse(morningReportSchema, { morningReport: "off" }));
    expect((await getMorningReportSetting(db, project.ownerId, project.id)).enabled).toBe(false);
  });
});
