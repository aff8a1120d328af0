import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { ROLE_LABELS } from "~/modules/access/roles";
import { DomainError } from "~/modules/errors.server";
import { accountMailable, enqueueAccountMail } from "~/modules/mail/account-mail.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { morningReportMail } from "~/modules/mail/founder-messages.server";
import { consumeRateLimit, dailyLimit } from "~/modules/rate-limit/rate-limit.server";
import { founderTimeZone } from "~/modules/time/founder-zone";
import { latestDailySlot } from "~/modules/time/zoned-slots";
import { readReport } from "./morning-report.server";
import { addDays, startOfDay } from "~/modules/time/calendar-days";
import type { DueReport } from "./report-days";

/** 'Send it to me now', per member and project: enough to look at it again after a change, never a mail cannon. */
export const MORNING_REPORT_NOW_LIMIT = dailyLimit(3, "You had this report sent 3 times today. It still goes out on its own the morning after a day with scans.");

export const UNCONFIRMED_REPORT_MESSAGE = "Confirm your e-mail address first: the report goes only to a confirmed address";

/** When the report goes out: `DIGEST_HOUR` on the project owner's clock (decision 66), as Lead settings names it. */
export type MorningReportSchedule = { hour: number; timeZone: string };

/** The report about yesterday on the owner's clock, whatever the hour now: the day report the next morning brings. */
export function yesterdayReport(now: Date, timeZone: string): DueReport {
  const today = latestDailySlot(now, 0, timeZone).slot;
  const yesterday = addDays(today, -1);
  return { kind: "day", day: yesterday, from: startOfDay(yesterday, timeZone), to: startOfDay(today, timeZone) };
}

/** The project as the report reads it, for a member the report goes to (the roles allowed `export`, decision 66). */
async function reportProject(db: Kysely<Database>, userId: string, projectId: string) {
  const { role } = await requireProjectRole(db, userId, projectId, "export");
  const project = await db
    .selectFrom("projects")
    .innerJoin("users", "users.id", "projects.owner_id")
    .select(["projects.id", "projects.title", "projects.owner_id", "users.time_zone"])
    .where("projects.id", "=", projectId)
    .executeTakeFirstOrThrow();
  return { project, role };
}

/** When this project's report goes out, for Lead settings: the hour and the owner's zone. */
export async function morningReportSchedule(db: Kysely<Database>, userId: string, projectId: string, hour: number): Promise<MorningReportSchedule> {
  const { project } = await reportProject(db, userId, projectId);
  return { hour, timeZone: founderTimeZone(project.time_zone) };
}

/**
 * Yesterday's morning-after report for this member, built as the scheduler builds it (`readReport` and
 * `morningReportMail`): the same subject, text and HTML the mail would carry, addressed to them.
 */
export async function buildYesterdayReport(db: Kysely<Database>, links: MailLinks, user: { id: string; email: string }, projectId: string, now = new Date()) {
  const { project, role } = await reportProject(db, user.id, projectId);
  const report = yesterdayReport(now, founderTimeZone(project.time_zone));
  const content = await readReport(db, links, project, report, now);
  const mail = morningReportMail({ ...content, to: user.email, projectTitle: project.title, kind: report.kind, roleLabel: ROLE_LABELS[role].toLowerCase() });
  return { mail, project: { id: project.id, title: project.title }, role, period: content.period, attachment: content.csv?.filename ?? null };
}

/**
 * 'Send it to me now': yesterday's report to this member alone, through the outbox like every account mail, at most
 * MORNING_REPORT_NOW_LIMIT a day. It is not the scheduled report: the morning's own still goes out to everyone.
 */
export async function sendYesterdayReportNow(db: Kysely<Database>, links: MailLinks, user: { id: string; email: string }, projectId: string, now = new Date()): Promise<void> {
  const { mail } = await buildYesterdayReport(db, links, user, projectId, now);
  if (!(await accountMailable(db, user.id))) throw new DomainError("forbidden", UNCONFIRMED_REPORT_MESSAGE);
  await consumeRateLimit(db, `morning-report-now:${user.id}:${projectId}`, MORNING_REPORT_NOW_LIMIT, now.getTime());
  await enqueueAccountMail(db, mail, now);
}
