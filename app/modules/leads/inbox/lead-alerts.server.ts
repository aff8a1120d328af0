import type { Kysely } from "kysely";
import type { AlertMode, Database, MemberRole } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { leadAlertSummaryMail } from "~/modules/mail/founder-messages.server";
import type { OutgoingMail } from "~/modules/mail/outbox.server";
import { enqueueAccountMail, enqueueAccountMails } from "~/modules/mail/account-mail.server";
import { queueInBatches, ScheduledMail, type ScheduledMailOptions, type ScheduledSendOptions } from "~/modules/mail/scheduled-mail.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { latestDailySlot, type DigestSlot } from "~/modules/time/zoned-slots";
import { formatWaitDuration } from "~/modules/time/relative-time";
import type { LeadAlertSettings } from "./lead-alert-form";
import { leadFilterQuery } from "~/modules/leads/lead-forms";

const DEFAULT_SETTINGS: LeadAlertSettings = { introAlerts: "instant", signalAlerts: "instant" };
/**
 * What a member's e-mail alerts are until they choose (decision 85): a co-founder's are the ones a new project's
 * owner starts with; staff and viewers hear of nothing by e-mail. Mail goes only to a confirmed address (decision 83).
 */
const MEMBER_DEFAULT_SETTINGS: Record<MemberRole, LeadAlertSettings> = {
  "co-founder": DEFAULT_SETTINGS,
  staff: { introAlerts: "off", signalAlerts: "off" },
  viewer: { introAlerts: "off", signalAlerts: "off" },
};

/** The signed-in member's own e-mail alerts for the project: the owner's are the project's settings (decision 61). */
export async function getLeadAlertSettings(db: Kysely<Database>, userId: string, projectId: string): Promise<LeadAlertSettings> {
  const access = await requireProjectRole(db, userId, projectId, "view");
  if (access.role === "owner") return alertSettingsOf(db, access.id);
  const row = await db
    .selectFrom("member_alert_settings")
    .select(["intro_alerts", "signal_alerts"])
    .where("project_id", "=", access.id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { introAlerts: row.intro_alerts, signalAlerts: row.signal_alerts } : MEMBER_DEFAULT_SETTINGS[access.role];
}

async function alertSettingsOf(db: Kysely<Database>, projectId: string): Promise<LeadAlertSettings> {
  const row = await db.selectFrom("project_alert_settings").select(["intro_alerts", "signal_alerts"]).where("project_id", "=", projectId).executeTakeFirst();
  return row ? { introAlerts: row.intro_alerts, signalAlerts: row.signal_alerts } : DEFAULT_SETTINGS;
}

export async function saveLeadAlertSettings(db: Kysely<Database>, userId: string, projectId: string, input: LeadAlertSettings): Promise<void> {
  const project = await requireProjectRole(db, userId, projectId, "view");
  const values = { intro_alerts: input.introAlerts, signal_alerts: input.signalAlerts };
  if (project.role !== "owner") {
    await db
      .insertInto("member_alert_settings")
      .values({ project_id: project.id, user_id: userId, ...values })
      .onConflict((oc) => oc.columns(["project_id", "user_id"]).doUpdateSet(values))
      .execute();
    return;
  }
  await db
    .insertInto("project_alert_settings")
    .values({ project_id: project.id, ...values })
    .onConflict((oc) => oc.column("project_id").doUpdateSet(values))
    .execute();
}

/**
 * The founder's alert for a new intro or signal, as the founder chose for this project, inside the visitor's
 * transaction: queued now, kept for the daily summary as one line, or not sent at all. Each member who chose
 * e-mail alerts gets the same, to their own address and by their own choice (decision 61).
 */
export async function queueFounderAlert(
  trx: Kysely<Database>,
  projectId: string,
  kind: "intro" | "signal",
  alert: { mail: OutgoingMail; summary: string; leadId: string },
  now = new Date(),
): Promise<AlertMode> {
  const settings = await alertSettingsOf(trx, projectId);
  const mode = kind === "intro" ? settings.introAlerts : settings.signalAlerts;
  if (mode === "instant") await enqueueAccountMail(trx, alert.mail, now);
  if (mode === "daily") {
    await trx
      .insertInto("pending_lead_alerts")
      .values({ id: crypto.randomUUID(), project_id: projectId, kind, summary: alert.summary, lead_id: alert.leadId, created_at: now.toISOString(), summary_slot: null })
      .execute();
  }
  const column = kind === "intro" ? "member_alert_settings.intro_alerts" : "member_alert_settings.signal_alerts";
  const rows = await trx
    .selectFrom("project_members")
    .leftJoin("member_alert_settings", (join) =>
      join.onRef("member_alert_settings.project_id", "=", "project_members.project_id").onRef("member_alert_settings.user_id", "=", "project_members.user_id"),
    )
    .innerJoin("users", "users.id", "project_members.user_id")
    .select(["users.id", "users.email", "project_members.role", `${column} as chosen`])
    .where("project_members.project_id", "=", projectId)
    .execute();
  const defaultKey = kind === "intro" ? "introAlerts" : "signalAlerts";
  const members = rows.map((row) => ({ ...row, mode: row.chosen ?? MEMBER_DEFAULT_SETTINGS[row.role][defaultKey] })).filter((member) => member.mode !== "off");
  for (const member of members) {
    if (member.email.toLowerCase().endsWith(".invalid")) continue;
    if (member.mode === "instant") await enqueueAccountMail(trx, { ...alert.mail, to: member.email }, now);
    else {
      await trx
        .insertInto("pending_lead_alerts")
        .values({ id: crypto.randomUUID(), project_id: projectId, kind, summary: alert.summary, lead_id: alert.leadId, created_at: now.toISOString(), summary_slot: null, user_id: member.id })
        .execute();
    }
  }
  return mode;
}

export type SummaryRun = {
  slot: string;
  /** Summaries queued by this pass. */
  messages: number;
  /** False when the pass was stopped (shutdown) before the last batch: the next pass, on any instance, continues. */
  finished: boolean;
};

/** Projects summarised per transaction. */
export const LEAD_SUMMARY_BATCH_SIZE = 100;
/** How many of the people still waiting a daily summary names (the rest are counted, and a link lists them all). */
export const WAITING_LISTED = 10;

/**
 * The leads of these projects still waiting for a first answer (decisions 55 and 84; a person only met in person
 * waits for nobody): per project the first WAITING_LISTED,
 * the longest waiting first, and how many wait in all. One query whose answer stays small however many wait.
 */
export async function readWaitingLeads(db: Kysely<Database>, projectIds: string[]) {
  const ranked = db
    .selectFrom("leads")
    .select((eb) => [
      "project_id",
      "id",
      "name",
      "awaiting_since",
      eb.fn.agg<number>("row_number").over((over) => over.partitionBy("project_id").orderBy("awaiting_since").orderBy("id")).as("place"),
      eb.fn.countAll<number>().over((over) => over.partitionBy("project_id")).as("waiting"),
    ])
    .where("project_id", "in", projectIds)
    .where("first_response_at", "is", null)
    .where("awaiting_since", "is not", null)
    .$narrowType<{ awaiting_since: string }>();
  const rows = await db.selectFrom(ranked.as("ranked")).selectAll().where("place", "<=", WAITING_LISTED).orderBy("project_id").orderBy("place").execute();
  const byProject = new Map<string, { listed: typeof rows; waiting: number }>();
  for (const row of rows) {
    const entry = byProject.get(row.project_id) ?? { listed: [], waiting: Number(row.waiting) };
    entry.listed.push(row);
    byProject.set(row.project_id, entry);
  }
  return byProject;
}

/**
 * Queues the summaries of the next `batchSize` projects with lines kept before the slot and not yet sent, in one
 * transaction, and marks those lines as sent; the marks are the run's progress. The first write locks the run's row
 * (PostgreSQL) or takes the write lock (SQLite), so batches never overlap across instances. The batch that finds
 * no project left marks the run finished. Resolves with the number queued, or null when the run is finished.
 */
export async function queueLeadAlertBatch(db: Kysely<Database>, links: MailLinks, slot: DigestSlot, batchSize = LEAD_SUMMARY_BATCH_SIZE, now = new Date()): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const run = await trx
      .updateTable("lead_alert_runs")
      .set((eb) => ({ messages: eb.ref("messages") }))
      .where("slot", "=", slot.slot)
      .where("finished_at", "is", null)
      .returning("slot")
      .executeTakeFirst();
    if (!run) return null;
    const projectIds = (
      await trx
        .selectFrom("pending_lead_alerts")
        .select("project_id")
        .distinct()
        .where("summary_slot", "is", null)
        .where("created_at", "<=", slot.at.toISOString())
        .orderBy("project_id")
        .limit(batchSize)
        .execute()
    ).map((row) => row.project_id);
    if (projectIds.length === 0) {
      await trx.updateTable("lead_alert_runs").set({ finished_at: now.toISOString() }).where("slot", "=", slot.slot).execute();
      return 0;
    }
    const pending = await trx
      .selectFrom("pending_lead_alerts")
      .innerJoin("projects", "projects.id", "pending_lead_alerts.project_id")
      // A line kept for a member goes in that member's summary; the owner's lines have no member (decision 61).
      .innerJoin("users", (join) => join.on((eb) => eb("users.id", "=", eb.fn.coalesce("pending_lead_alerts.user_id", "projects.owner_id"))))
      .select([
        "pending_lead_alerts.id",
        "pending_lead_alerts.project_id",
        "pending_lead_alerts.kind",
        "pending_lead_alerts.summary",
        "pending_lead_alerts.lead_id",
        "projects.title",
        "users.email",
      ])
      .where("pending_lead_alerts.summary_slot", "is", null)
      .where("pending_lead_alerts.created_at", "<=", slot.at.toISOString())
      .where("pending_lead_alerts.project_id", "in", projectIds)
      .orderBy("pending_lead_alerts.created_at")
      .orderBy("pending_lead_alerts.id")
      .execute();
    const byRecipient = new Map<string, typeof pending>();
    for (const line of pending) {
      const key = `${line.project_id} ${line.email}`;
      byRecipient.set(key, [...(byRecipient.get(key) ?? []), line]);
    }
    const waiting = await readWaitingLeads(trx, projectIds);
    const mails = [...byRecipient.values()].map((lines) => {
      const projectId = lines[0]!.project_id;
      const people = waiting.get(projectId) ?? { listed: [], waiting: 0 };
      return leadAlertSummaryMail({
        to: lines[0]!.email,
        projectTitle: lines[0]!.title,
        lines: lines.map((line) => ({ kind: line.kind, summary: line.summary, leadUrl: line.lead_id ? links.leadUrl(projectId, line.lead_id) : null })),
        leadsUrl: links.leadsUrl(projectId),
        waiting: people.listed.map((lead) => ({
          name: lead.name,
          waited: formatWaitDuration(now.getTime() - Date.parse(lead.awaiting_since)),
          leadUrl: links.leadUrl(projectId, lead.id),
        })),
        moreWaiting: people.waiting - people.listed.length,
        unansweredUrl: `${links.leadsUrl(projectId)}${leadFilterQuery({ view: "unanswered" })}`,
      });
    });
    const messages = await enqueueAccountMails(trx, mails, now);
    await trx
      .updateTable("pending_lead_alerts")
      .set({ summary_slot: slot.slot })
      .where("summary_slot", "is", null)
      .where("created_at", "<=", slot.at.toISOString())
      .where("project_id", "in", projectIds)
      .execute();
    await trx.updateTable("lead_alert_runs").set((eb) => ({ messages: eb("messages", "+", messages) })).where("slot", "=", slot.slot).execute();
    return messages;
  });
}

/**
 * Sends the daily summaries of `slot`, once across instances (the run is claimed by inserting its row, as the weekly
 * digest does): one e-mail per project with the lines kept before the slot, queued a batch of projects per
 * transaction, yielding between batches. With `resume`, continues a claimed run that is not finished. Resolves with
 * what this call queued, or null when someone else claimed (or finished) the run.
 */
export async function sendLeadAlertSummaries(
  db: Kysely<Database>,
  links: MailLinks,
  slot: DigestSlot,
  now = new Date(),
  options: { resume?: boolean; batchSize?: number; stopping?: AbortSignal } = {},
): Promise<SummaryRun | null> {
  if (!options.resume) {
    const claimed = await db
      .insertInto("lead_alert_runs")
      .values({ slot: slot.slot, ran_at: now.toISOString(), messages: 0, finished_at: null })
      .onConflict((oc) => oc.column("slot").doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return null;
  }
  const progress = await queueInBatches(() => queueLeadAlertBatch(db, links, slot, options.batchSize, now), options);
  return progress && { slot: slot.slot, ...progress };
}

/** Sends the day's summaries at `DIGEST_HOUR` in `DIGEST_TIME_ZONE`, checked every minute, like the weekly digest. */
export class LeadAlertScheduler extends ScheduledMail<SummaryRun> {
  protected readonly description = "daily lead summaries";
  protected readonly runsTable = "lead_alert_runs";

  constructor(
    db: Kysely<Database>,
    private readonly links: MailLinks,
    private readonly schedule: { hour: number; timeZone: string },
    logger: Logger,
    options: ScheduledMailOptions = {},
  ) {
    super(db, logger, options);
  }

  protected latestSlot(now: Date): DigestSlot {
    return latestDailySlot(now, this.schedule.hour, this.schedule.timeZone);
  }

  protected send(slot: DigestSlot, now: Date, options: ScheduledSendOptions): Promise<SummaryRun | null> {
    return sendLeadAlertSummaries(this.db, this.links, slot, now, options);
  }
}
