import { text } from "node:stream/consumers";
import type { Kysely } from "kysely";
import type { Database, MailAttachment } from "~/db/schema";
import { MEMBER_ROLES, ROLE_LABELS, roleAllows, type ProjectRole } from "~/modules/access/roles";
import { countProjectActivitySince, loadProjectAnalytics, type FunnelRow } from "~/modules/analytics/analytics.server";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { countScansInBuckets } from "~/modules/analytics/scan-buckets.server";
import { nameSource, qrCodeIdOfSource, readCodeNames } from "~/modules/analytics/sources.server";
import { formatAmountRange } from "~/modules/formats/amount";
import { LEAD_TEMPERATURE_LABELS } from "~/modules/formats/lead-triage";
import { readWaitingLeads } from "~/modules/leads/inbox/lead-alerts.server";
import { leadFilterQuery } from "~/modules/leads/lead-forms";
import type { Logger } from "~/modules/logging/logger.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { morningReportMail } from "~/modules/mail/founder-messages.server";
import { enqueueAccountMails } from "~/modules/mail/account-mail.server";
import { RecurringPass } from "~/modules/jobs/recurring-pass.server";
import type { ScheduledMailOptions } from "~/modules/mail/scheduled-mail.server";
import { founderTimeZone } from "~/modules/time/founder-zone";
import { formatWaitDuration } from "~/modules/time/relative-time";
import { addDays, startOfDay } from "~/modules/time/calendar-days";
import { deckPeriodText, readDeckPeriod, readingLinesOf } from "./deck-report.server";
import { dueReports, periodOf, type DueReport } from "./report-days";
import { DAY_MS } from "~/modules/time/units";

/** How far back scans make a project a candidate: the week report's day and a margin for any zone. */
const CANDIDATE_DAYS = 10;
/** A larger CSV is not attached (the report says where to download it): an outbox row stays a sensible size. */
export const MAX_CSV_ATTACHMENT_BYTES = 5_000_000;
/** Signals a report names, the largest first. */
export const TOP_SIGNALS = 5;
/** People met in person a report names, the hottest first. */
export const TOP_MET_IN_PERSON = 10;

export type Candidate = { id: string; title: string; owner_id: string; time_zone: string | null };

/** Projects with the report on and a counted scan on a QR code in the last days: the only ones a report can be due for. */
async function readCandidates(db: Kysely<Database>, now: Date): Promise<Candidate[]> {
  const since = new Date(now.getTime() - CANDIDATE_DAYS * DAY_MS).toISOString();
  return db
    .selectFrom("projects")
    .innerJoin("users", "users.id", "projects.owner_id")
    .leftJoin("project_alert_settings", "project_alert_settings.project_id", "projects.id")
    .select(["projects.id", "projects.title", "projects.owner_id", "users.time_zone"])
    .where((eb) => eb.or([eb("project_alert_settings.morning_report", "is", null), eb("project_alert_settings.morning_report", "=", true)]))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("scan_hours")
          .select("scan_hours.project_id")
          .whereRef("scan_hours.project_id", "=", "projects.id")
          .where("scan_hours.qr_code_id", "<>", "")
          .where("scan_hours.hour", ">=", since),
      ),
    )
    .orderBy("projects.id")
    .execute();
}

/** Counted scans per QR code ('' is the plain link) from `from` to `to`. */
async function scansPerCode(db: Kysely<Database>, projectId: string, from: Date, to: Date): Promise<Map<string, number>> {
  const counts = await countScansInBuckets(db, projectId, [from.getTime()], to.getTime());
  return new Map([...counts].map(([code, values]) => [code, values[0]!]));
}

/**
 * Whether the report is due: its day had a counted scan on a QR code, it was not sent yet, and (for the week
 * report) no week report went out for one of the six days before, so a three-day fair brings one week report.
 */
async function isDue(db: Kysely<Database>, projectId: string, report: DueReport, timeZone: string): Promise<boolean> {
  const sent = await db
    .selectFrom("morning_reports")
    .select("day")
    .where("project_id", "=", projectId)
    .where("kind", "=", report.kind)
    .where("day", "<=", report.day)
    .where("day", ">", report.kind === "week" ? addDays(report.day, -7) : addDays(report.day, -1))
    .executeTakeFirst();
  if (sent) return false;
  const scans = await scansPerCode(db, projectId, report.from, startOfDay(addDays(report.day, 1), timeZone));
  return [...scans].some(([code, count]) => code !== "" && count > 0);
}

/** The owner and each member whose role may export the contacts the report carries (decision 66: co-founders). */
async function readRecipients(db: Kysely<Database>, project: Candidate): Promise<{ id: string; email: string; role: ProjectRole }[]> {
  const roles = MEMBER_ROLES.filter((role) => roleAllows(role, "export"));
  const [owner, members] = await Promise.all([
    db.selectFrom("users").select(["id", "email"]).where("id", "=", project.owner_id).executeTakeFirst(),
    db
      .selectFrom("project_members")
      .innerJoin("users", "users.id", "project_members.user_id")
      .select(["users.id", "users.email", "project_members.role"])
      .where("project_members.project_id", "=", project.id)
      .where("project_members.role", "in", roles)
      .orderBy("users.email")
      .execute(),
  ]);
  const all = [...(owner ? [{ ...owner, role: "owner" as ProjectRole }] : []), ...members];
  return all.filter((recipient) => !recipient.email.toLowerCase().endsWith(".invalid"));
}

function codeName(row: Pick<FunnelRow, "label" | "eventTag">): string {
  return row.eventTag && row.eventTag !== row.label ? `${row.label} · ${row.eventTag}` : row.label;
}

/** The contacts CSV exactly as the analytics page's export downloads it, or null above the attachment limit. */
async function contactsCsv(db: Kysely<Database>, ownerId: string, projectId: string): Promise<MailAttachment | null> {
  const { fileName, body } = await exportContactsCsv(db, ownerId, projectId);
  const content = await text(body);
  if (Buffer.byteLength(content) > MAX_CSV_ATTACHMENT_BYTES) return null;
  return { filename: fileName, contentType: "text/csv; charset=utf-8", content };
}

const TEMPERATURE_RANK = { hot: 0, warm: 1, cold: 2 } as const;

/**
 * The people the team met in person in the period (a capture, decision 62), each once: the hottest first, then in
 * the order they were met, TOP_MET_IN_PERSON at most; each as "{name} (Hot), met at {code}: {the founder's line}".
 */
async function readMetInPerson(db: Kysely<Database>, projectId: string, report: DueReport): Promise<{ listed: { leadId: string; text: string }[]; more: number }> {
  const [rows, codeNames] = await Promise.all([
    db
      .selectFrom("lead_captures")
      .innerJoin("leads", "leads.id", "lead_captures.lead_id")
      .select(["leads.id", "leads.name", "leads.temperature", "lead_captures.source", "lead_captures.note"])
      .where("lead_captures.project_id", "=", projectId)
      .where("lead_captures.created_at", ">=", report.from.toISOString())
      .where("lead_captures.created_at", "<", report.to.toISOString())
      .orderBy("lead_captures.created_at")
      .orderBy("lead_captures.id")
      .execute(),
    readCodeNames(db, projectId),
  ]);
  const people = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if (!people.has(row.id)) people.set(row.id, row);
  const ranked = [...people.values()].sort((a, b) => rankOf(a.temperature) - rankOf(b.temperature));
  return {
    listed: ranked.slice(0, TOP_MET_IN_PERSON).map((person) => {
      const temperature = person.temperature ? ` (${LEAD_TEMPERATURE_LABELS[person.temperature]})` : "";
      const note = person.note ? `: ${person.note}` : "";
      return { leadId: person.id, text: `${person.name}${temperature}, met at ${nameSource(person.source, codeNames).name}${note}` };
    }),
    more: Math.max(0, ranked.length - TOP_MET_IN_PERSON),
  };
}

function rankOf(temperature: keyof typeof TEMPERATURE_RANK | null): number {
  return temperature ? TEMPERATURE_RANK[temperature] : 3;
}

/** Everything a report says, read before its claim: the same for each recipient but the greeting's role. */
export async function readReport(db: Kysely<Database>, links: MailLinks, project: Candidate, report: DueReport, now: Date) {
  const windowLabel = report.kind === "day" ? "Scans that day" : "Scans these 8 days";
  const [analytics, scans, totals, waiting, signals, met, csv, deck] = await Promise.all([
    loadProjectAnalytics(db, project.owner_id, project.id, now),
    scansPerCode(db, project.id, report.from, report.to),
    countProjectActivitySince(db, project.id, report.from, report.to),
    readWaitingLeads(db, [project.id]),
    db
      .selectFrom("signals")
      .innerJoin("contacts", "contacts.id", "signals.contact_id")
      .leftJoin("leads", (join) => join.onRef("leads.project_id", "=", "signals.project_id").onRef("leads.email", "=", "contacts.email"))
      .select(["contacts.name", "signals.range_label", "signals.range_min", "signals.range_max", "signals.message", "leads.id as lead_id"])
      .where("signals.project_id", "=", project.id)
      .where("signals.created_at", ">=", report.from.toISOString())
      .where("signals.created_at", "<", report.to.toISOString())
      .orderBy("signals.range_min", "desc")
      .orderBy("signals.created_at")
      .orderBy("signals.id")
      .limit(TOP_SIGNALS)
      .execute(),
    readMetInPerson(db, project.id, report),
    contactsCsv(db, project.owner_id, project.id),
    readDeckPeriod(db, project.id, report),
  ]);
  const scanned = analytics.funnel
    .map((row) => {
      const codeId = row.kind === "direct" ? "" : qrCodeIdOfSource(row.source);
      return { row, inPeriod: codeId === null ? 0 : (scans.get(codeId) ?? 0) };
    })
    .filter(({ inPeriod }) => inPeriod > 0)
    .sort((a, b) => b.inPeriod - a.inPeriod || (a.row.kind === "qr" ? -1 : 1));
  const top = scanned.find(({ row }) => row.kind === "qr")?.row;
  const people = waiting.get(project.id) ?? { listed: [], waiting: 0 };
  // Beside each person the report names, their reading of the deck on the page now (decision 99).
  const listedLeads = [...people.listed.map((lead) => lead.id), ...signals.flatMap((signal) => (signal.lead_id ? [signal.lead_id] : [])), ...met.listed.map((person) => person.leadId)];
  const readings = await readingLinesOf(db, project.id, listedLeads);
  return {
    eventName: top ? (top.eventTag ?? top.label) : project.title,
    period: periodOf(report),
    totals: {
      scans: [...scans.values()].reduce((sum, count) => sum + count, 0),
      peopleWhoActed: totals.peopleWhoActed,
      intros: totals.intros,
      signals: totals.signals,
    },
    codes: scanned.map(({ row, inPeriod }) => ({
      name: codeName(row),
      rows: [
        [windowLabel, inPeriod.toLocaleString("en-US")],
        ["Scans in all", row.scans.toLocaleString("en-US")],
        ["Unique viewers", row.viewers.toLocaleString("en-US")],
        ["People who acted", `${row.people.toLocaleString("en-US")} (${row.share}%)`],
        ["Intros", row.intros.toLocaleString("en-US")],
        ["Follows", row.subscribers.toLocaleString("en-US")],
        ["Signals", row.signals.toLocaleString("en-US")],
        ["Saves", row.saves.toLocaleString("en-US")],
      ] as [string, string][],
    })),
    waiting: people.listed.map((lead) => ({
      name: lead.name,
      waited: formatWaitDuration(now.getTime() - Date.parse(lead.awaiting_since)),
      reading: readings.get(lead.id) ?? null,
      leadUrl: links.leadUrl(project.id, lead.id),
    })),
    moreWaiting: people.waiting - people.listed.length,
    unansweredUrl: `${links.leadsUrl(project.id)}${leadFilterQuery({ view: "unanswered" })}`,
    topSignals: signals.map((signal) => ({
      text: [
        `${signal.name}: ${signal.range_label} (${formatAmountRange(Number(signal.range_min), signal.range_max === null ? null : Number(signal.range_max))})`,
        signal.message ? `“${signal.message}”` : null,
      ]
        .filter(Boolean)
        .join(" "),
      reading: signal.lead_id ? (readings.get(signal.lead_id) ?? null) : null,
      leadUrl: signal.lead_id ? links.leadUrl(project.id, signal.lead_id) : null,
    })),
    metInPerson: met.listed.map((person) => ({ text: person.text, reading: readings.get(person.leadId) ?? null, leadUrl: links.leadUrl(project.id, person.leadId) })),
    moreMetInPerson: met.more,
    deck: deck ? deckPeriodText(deck) : null,
    analyticsUrl: links.analyticsUrl(project.id),
    settingsUrl: links.leadSettingsUrl(project.id),
    csv,
  };
}

/**
 * Queues `report` for `project`, once across instances and restarts: its row in `morning_reports` (unique per
 * project, day and kind) is inserted in the same transaction that queues the mail to every recipient, so whoever
 * inserts it sends it and nobody else does. Resolves with the number of messages queued (0 when it was claimed).
 */
export async function sendMorningReport(db: Kysely<Database>, links: MailLinks, project: Candidate, report: DueReport, now = new Date()): Promise<number> {
  const recipients = await readRecipients(db, project);
  if (recipients.length === 0) return 0;
  const content = await readReport(db, links, project, report, now);
  const mails = recipients.map((recipient) =>
    morningReportMail({
      ...content,
      to: recipient.email,
      projectTitle: project.title,
      kind: report.kind,
      roleLabel: ROLE_LABELS[recipient.role].toLowerCase(),
    }),
  );
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto("morning_reports")
      .values({
        project_id: project.id,
        day: report.day,
        kind: report.kind,
        sent_at: now.toISOString(),
        messages: mails.length,
      })
      .onConflict((oc) => oc.columns(["project_id", "day", "kind"]).doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return 0;
    return enqueueAccountMails(trx, mails, now);
  });
}

export type MorningReportPass = { reports: number; messages: number; finished: boolean };

/**
 * The morning-after reports (decision 66), checked every minute like the other scheduled mail: for each project with
 * the report on and recent scans, the reports due at the latest `DIGEST_HOUR` on its owner's clock. A report found
 * not due (sent, or its day had no scans) is remembered for the rest of the process, so a pass stays cheap.
 */
export class MorningReportScheduler extends RecurringPass<MorningReportPass> {
  readonly #decided = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly links: MailLinks,
    private readonly schedule: { hour: number },
    private readonly logger: Logger,
    private readonly options: ScheduledMailOptions = {},
  ) {
    super();
  }

  /** Runs every `intervalMs`, and once now (a missed report is caught up at start-up). */
  override start(intervalMs = 60_000): void {
    super.start(intervalMs);
    this.wake();
  }

  protected async pass(stopping: AbortSignal): Promise<MorningReportPass> {
    const now = this.options.clock?.() ?? new Date();
    const result: MorningReportPass = { reports: 0, messages: 0, finished: true };
    if (this.#decided.size > 100_000) this.#decided.clear();
    for (const project of await readCandidates(this.db, now)) {
      const timeZone = founderTimeZone(project.time_zone);
      for (const report of dueReports(now, this.schedule.hour, timeZone)) {
        if (stopping.aborted) return { ...result, finished: false };
        const key = `${project.id} ${report.kind} ${report.day}`;
        if (this.#decided.has(key)) continue;
        try {
          if (await isDue(this.db, project.id, report, timeZone)) {
            const queued = await sendMorningReport(this.db, this.links, project, report, now);
            if (queued) {
              result.reports += 1;
              result.messages += queued;
            }
          }
          this.#decided.add(key);
        } catch (error) {
          // One project's failure must not hold back the others' reports; the next pass tries it again.
          this.logger.error({ err: error, projectId: project.id, report: report.kind, day: report.day }, "a morning-after report failed");
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (result.messages) {
      this.logger.info(result, "morning-after reports queued");
      this.options.onMailQueued?.();
    }
    return result;
  }

  protected passFailed(error: unknown): void {
    this.logger.error({ err: error }, "morning-after reports failed");
  }
}
