import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { digestMail } from "~/modules/mail/founder-messages.server";
import { enqueueMails, type OutgoingMail } from "~/modules/mail/outbox.server";
import { queueInBatches, ScheduledMail, type ScheduledMailOptions, type ScheduledSendOptions } from "~/modules/mail/scheduled-mail.server";
import { latestDigestSlot, type DigestSlot } from "~/modules/time/zoned-slots";

export type DigestSchedule = { hour: number; timeZone: string };

export type DigestRun = {
  slot: string;
  /** Projects with something new in this run. */
  projects: number;
  /** Digests queued by this pass (a run continued after a restart counts only what it queued). */
  messages: number;
  /** False when the pass was stopped (shutdown) before the last batch: the next pass, on any instance, continues. */
  finished: boolean;
};

/** Digests queued per transaction: small enough that a batch never holds the database or the event loop for long. */
export const DIGEST_BATCH_SIZE = 200;

/**
 * Mails queued per transaction by Send now (decision 79): smaller than the digest's, because it runs whenever a
 * founder presses the button, beside their own requests, rather than once a week.
 */
export const SEND_NOW_BATCH_SIZE = 100;

export type DigestBatchOptions = {
  batchSize?: number;
  /** Checked between batches: once aborted, the run stops after the batch in progress and stays resumable. */
  stopping?: AbortSignal;
};

/**
 * One follower's digest of `updates` (oldest first): the one builder of the weekly digest, 'Send now' and its
 * preview, so what the founder previews is what followers get, unsubscribe link included.
 */
export function followerDigestMail(
  links: MailLinks,
  project: { title: string; slug: string },
  contact: { id: string; email: string; name: string },
  updates: { body: string; created_at: string }[],
  timeZone: string,
): OutgoingMail {
  return digestMail({
    to: contact.email,
    name: contact.name,
    projectTitle: project.title,
    updates: updates.map((update) => ({ body: update.body, createdAt: update.created_at })),
    pitchUrl: links.pitchUrl(project.slug),
    unsubscribe: links.unsubscribe(contact.id),
    timeZone,
  });
}

/**
 * Claims the digest of `slot`, once across instances: inserting its row decides who claimed it, and in the same
 * transaction the updates it will mail (published projects, posted before the slot, not yet mailed) are marked with
 * the slot. Resolves with the number of projects with something new, or null when the slot was already claimed.
 */
export async function claimDigestRun(db: Kysely<Database>, slot: DigestSlot, now = new Date()): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto("digest_runs")
      .values({ slot: slot.slot, slot_at: slot.at.toISOString(), ran_at: now.toISOString(), projects: 0, messages: 0, cursor_project_id: null, cursor_email: null, finished_at: null })
      .onConflict((oc) => oc.column("slot").doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return null;
    await trx
      .updateTable("project_updates")
      .set({ digest_slot: slot.slot })
      .where("digest_slot", "is", null)
      .where("created_at", "<=", slot.at.toISOString())
      .where("project_id", "in", (eb) => eb.selectFrom("projects").select("id").where("status", "=", "published"))
      .execute();
    const { projects } = await trx
      .selectFrom("project_updates")
      .select((eb) => eb.fn.count<number>("project_id").distinct().as("projects"))
      .where("digest_slot", "=", slot.slot)
      .executeTakeFirstOrThrow();
    await trx.updateTable("digest_runs").set({ projects: Number(projects) }).where("slot", "=", slot.slot).execute();
    return Number(projects);
  });
}

/**
 * Queues the next batch of a claimed, unfinished run in one transaction: up to `batchSize` digests to the next
 * subscribed addresses after the run's cursor (projects in id order, addresses in order; a contact is one address
 * per project), then moves the cursor past them, or marks the run finished when nobody is left. The first write
 * locks the run's row (PostgreSQL) or takes the write lock (SQLite), so batches of one run never overlap, even
 * across instances, and each address is queued once. Resolves with the number queued, or null when the run is
 * finished (or was never claimed).
 */
export async function queueDigestBatch(
  db: Kysely<Database>,
  links: MailLinks,
  slot: string,
  timeZone: string,
  batchSize = DIGEST_BATCH_SIZE,
  now = new Date(),
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const run = await trx
      .updateTable("digest_runs")
      .set((eb) => ({ messages: eb.ref("messages") }))
      .where("slot", "=", slot)
      .where("finished_at", "is", null)
      .returning(["cursor_project_id", "cursor_email"])
      .executeTakeFirst();
    if (!run) return null;

    let projectsQuery = trx
      .selectFrom("project_updates")
      .innerJoin("projects", "projects.id", "project_updates.project_id")
      .select(["projects.id", "projects.title", "projects.slug"])
      .distinct()
      .where("project_updates.digest_slot", "=", slot)
      .orderBy("projects.id");
    if (run.cursor_project_id !== null) projectsQuery = projectsQuery.where("projects.id", ">=", run.cursor_project_id);
    const projects = await projectsQuery.execute();

    const digests: OutgoingMail[] = [];
    let cursor = { projectId: run.cursor_project_id, email: run.cursor_email };
    let exhausted = true;
    for (const project of projects) {
      const room = batchSize - digests.length;
      if (room === 0) {
        exhausted = false;
        break;
      }
      let subscribersQuery = trx
        .selectFrom("contacts")
        .select(["id", "email", "name"])
        .where("project_id", "=", project.id)
        .where("subscribed", "=", true)
        .where("awaiting_confirmation", "=", false)
        .orderBy("email")
        .limit(room);
      if (project.id === run.cursor_project_id && run.cursor_email !== null) subscribersQuery = subscribersQuery.where("email", ">", run.cursor_email);
      const subscribers = await subscribersQuery.execute();
      if (subscribers.length === 0) continue;
      const updates = await trx
        .selectFrom("project_updates")
        .select(["body", "created_at"])
        .where("project_id", "=", project.id)
        .where("digest_slot", "=", slot)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      for (const contact of subscribers) digests.push(followerDigestMail(links, project, contact, updates, timeZone));
      cursor = { projectId: project.id, email: subscribers.at(-1)!.email };
      if (subscribers.length === room) {
        exhausted = false;
        break;
      }
    }

    const queued = await enqueueMails(trx, digests, now);
    await trx
      .updateTable("digest_runs")
      .set((eb) => ({
        cursor_project_id: cursor.projectId,
        cursor_email: cursor.email,
        messages: eb("messages", "+", queued),
        finished_at: exhausted ? now.toISOString() : null,
      }))
      .where("slot", "=", slot)
      .execute();
    return queued;
  });
}

/**
 * Sends the digest of `slot`, once: claims it (or, with `resume`, continues a claimed run that is not finished),
 * then queues it batch by batch, each batch its own transaction, yielding to the event loop between batches so
 * requests are answered while a large digest is queued. Resolves with what this call queued, or null when the
 * slot was claimed by someone else (or, with `resume`, was finished by someone else).
 */
export async function sendDigestFor(
  db: Kysely<Database>,
  links: MailLinks,
  slot: DigestSlot,
  timeZone: string,
  now = new Date(),
  options: DigestBatchOptions & { resume?: boolean } = {},
): Promise<DigestRun | null> {
  let projects: number | null;
  if (options.resume) {
    const run = await db.selectFrom("digest_runs").select(["projects", "finished_at"]).where("slot", "=", slot.slot).executeTakeFirst();
    projects = run && !run.finished_at ? run.projects : null;
  } else {
    projects = await claimDigestRun(db, slot, now);
  }
  if (projects === null) return null;
  const progress = await queueInBatches(() => queueDigestBatch(db, links, slot.slot, timeZone, options.batchSize, now), options);
  return progress && { slot: slot.slot, projects, ...progress };
}

/**
 * Continues every Send now run (decision 79) stopped before its last batch (a shutdown, a crash), in the zone it
 * was started in (`fallbackTimeZone` for a run that recorded none); any instance may, and the run's row keeps two
 * batches from overlapping. Resolves with the mails queued.
 */
export async function continueSentNowRuns(db: Kysely<Database>, links: MailLinks, fallbackTimeZone: string, options: DigestBatchOptions = {}, now = new Date()): Promise<number> {
  const runs = await db.selectFrom("digest_runs").select(["slot", "time_zone"]).where("project_id", "is not", null).where("finished_at", "is", null).orderBy("ran_at").execute();
  let queued = 0;
  for (const run of runs) {
    const progress = await queueInBatches(() => queueDigestBatch(db, links, run.slot, run.time_zone ?? fallbackTimeZone, options.batchSize ?? SEND_NOW_BATCH_SIZE, now), { ...options, resume: true });
    queued += progress?.messages ?? 0;
    if (options.stopping?.aborted) break;
  }
  return queued;
}

/** Runs the weekly digest on Fridays at `DIGEST_HOUR` in `DIGEST_TIME_ZONE`, once per slot across instances. */
export class DigestScheduler extends ScheduledMail<DigestRun> {
  protected readonly description = "weekly digest";
  protected readonly runsTable = "digest_runs";

  constructor(
    db: Kysely<Database>,
    private readonly links: MailLinks,
    private readonly schedule: DigestSchedule,
    logger: Logger,
    options: ScheduledMailOptions = {},
  ) {
    super(db, logger, options);
  }

  protected latestSlot(now: Date): DigestSlot {
    return latestDigestSlot(now, this.schedule.hour, this.schedule.timeZone);
  }

  /** A Send now run stopped before its last batch is continued first. */
  protected override continueOtherRuns(now: Date, options: ScheduledSendOptions): Promise<number> {
    return continueSentNowRuns(this.db, this.links, this.schedule.timeZone, options, now);
  }

  protected send(slot: DigestSlot, now: Date, options: ScheduledSendOptions): Promise<DigestRun | null> {
    return sendDigestFor(this.db, this.links, slot, this.schedule.timeZone, now, options);
  }
}
