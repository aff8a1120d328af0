// Lead settings' 'Preview yesterday's report' and 'Send it to me now' (decision 88): the scheduler's own mail about
// yesterday, for the members it goes to, the send queued through the outbox, three a day, refused to the others.
import type { Kysely } from "kysely";
import pino from "pino";
import { expect, it } from "vitest";
import type { Database } from "~/db/schema";
import type { ProjectRole } from "~/modules/access/roles";
import { isDomainError } from "~/modules/errors.server";
import { validate } from "~/modules/forms/validation";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { MorningReportScheduler } from "~/modules/reports/morning-report.server";
import { buildYesterdayReport, MORNING_REPORT_NOW_LIMIT, morningReportSchedule, sendYesterdayReportNow, UNCONFIRMED_REPORT_MESSAGE } from "~/modules/reports/morning-report-now.server";
import { saveFounderTimeZone } from "~/modules/auth/founder-time-zone.server";
import { recordScans } from "~/modules/scans/scans.server";
import { acceptTeamInvitation, inviteToTeam } from "~/modules/team/team.server";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

async function memberWith(db: Kysely<Database>, project: { id: string; ownerId: string }, role: Exclude<ProjectRole, "owner">, confirmed = true) {
  const email = `${role}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const id = await createUser(db, { email, confirmed });
  const checked = validate(teamInvitationSchema, { email, role });
  if (!checked.ok) throw new Error(checked.formError);
  await inviteToTeam(db, testMailLinks, project.ownerId, project.id, checked.data);
  const mail = await db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
  await acceptTeamInvitation(db, { id, email }, /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!);
  return { id, email };
}

async function eventProject(db: Kysely<Database>) {
  const ownerEmail = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const ownerId = await createUser(db, { email: ownerEmail });
  await saveFounderTimeZone(db, ownerId, { timeZone: "Europe/Berlin" });
  const title = `Harbor ${crypto.randomUUID().slice(0, 6)}`;
  const project = await createProject(db, { ownerId, title });
  const code = await createQrCode(db, ownerId, project.id, { label: "Booth", eventTag: "Demo Day" });
  await recordScans(
    db,
    ["ada", "bo", "cy"].map((viewer) => ({ projectId: project.id, qrCodeId: code.id, viewerFingerprint: `${viewer}-${project.id}` })),
    undefined,
    new Date("2026-03-10T14:00:00.000Z"),
  );
  return { ...project, title, ownerEmail };
}

const reportsTo = (db: Kysely<Database>, recipient: string) =>
  db.selectFrom("mail_outbox").select(["subject", "html_body", "text_body"]).where("kind", "=", "morning-report").where("recipient", "=", recipient).execute();

async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!isDomainError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

const MORNING = new Date("2026-03-11T09:30:00.000Z");

describeEachDialect("yesterday's morning-after report on demand", (getDb) => {
  it("is the mail the scheduler sends the next morning, at the owner's hour and zone", async () => {
    const { db } = getDb();
    const project = await eventProject(db);
    const owner = { id: project.ownerId, email: project.ownerEmail };
    expect(await morningReportSchedule(db, owner.id, project.id, 8)).toEqual({ hour: 8, timeZone: "Europe/Berlin" });

    const { mail } = await buildYesterdayReport(db, testMailLinks, owner, project.id, MORNING);
    expect(mail.subject).toBe(`Yesterday at Demo Day: 3 scans, 0 people acted — ${project.title}`);
    expect(mail.text).toContain("on Tuesday, March 10:");

    await new MorningReportScheduler(db, testMailLinks, { hour: 9 }, pino({ level: "silent" }), { clock: () => MORNING }).runOnce();
    const [scheduled] = await reportsTo(db, owner.email);
    expect(scheduled).toEqual({ subject: mail.subject, html_body: mail.html, text_body: mail.text });
  });

  it("is sent to the member alone through the outbox, three times a day, then refused with a clear message", async () => {
    const { db } = getDb();
    const project = await eventProject(db);
    const cofounder = await memberWith(db, project, "co-founder");
    for (let sent = 0; sent < MORNING_REPORT_NOW_LIMIT.max; sent += 1) await sendYesterdayReportNow(db, testMailLinks, cofounder, project.id, MORNING);
    expect(await refusal(sendYesterdayReportNow(db, testMailLinks, cofounder, project.id, MORNING))).toEqual({ code: "rate_limited", message: MORNING_REPORT_NOW_LIMIT.message });

    const mails = await reportsTo(db, cofounder.email);
    expect(mails).toHaveLength(3);
    expect(mails[0]!.text_body).toContain("as co-founder");
    expect(await reportsTo(db, project.ownerEmail)).toEqual([]);
    // The owner's own allowance is theirs.
    await sendYesterdayReportNow(db, testMailLinks, { id: project.ownerId, email: project.ownerEmail }, project.id, MORNING);
    expect(await reportsTo(db, project.ownerEmail)).toHaveLength(1);
  });

  it("is refused to staff, viewers and someone off the team, and not sent to an unconfirmed address", async () => {
    const { db } = getDb();
    const project = await eventProject(db);
    for (const role of ["staff", "viewer"] as const) {
      const member = await memberWith(db, project, role);
      expect((await refusal(buildYesterdayReport(db, testMailLinks, member, project.id, MORNING))).code, role).toBe("forbidden");
      expect((await refusal(sendYesterdayReportNow(db, testMailLinks, member, project.id, MORNING))).code, role).toBe("forbidden");
      expect(await reportsTo(db, member.email)).toEqual([]);
    }
    const strangerId = await createUser(db);
    expect((await refusal(buildYesterdayReport(db, testMailLinks, { id: strangerId, email: "x@example.com" }, project.id, MORNING))).code).toBe("not_found");

    const unconfirmed = await memberWith(db, project, "co-founder", false);
    expect(await refusal(sendYesterdayReportNow(db, testMailLinks, unconfirmed, project.id, MORNING))).toEqual({ code: "forbidden", message: UNCONFIRMED_REPORT_MESSAGE });
    expect(await reportsTo(db, unconfirmed.email)).toEqual([]);
  });
});
