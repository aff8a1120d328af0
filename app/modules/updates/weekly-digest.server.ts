import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import { RecurringPass } from "~/modules/mail/recurring-pass.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { digestMail } from "~/modules/mail/messages.server";
import { enqueueMails, type OutgoingMail } from "~/modules/mail/outbox.server";
import { latestDigestSlot, type DigestSlot } from "./digest-slot";

export type DigestSchedule = { hour: number; timeZone: string };

export type DigestRun = { slot: string; projects: number; messages: number };

/**
 * Sends the digest of `slot`, once: the run is claimed by inserting its row, so a second instance (or a second
 * call) finds it taken and does nothing. In the same transaction every published project with updates posted
 * before the slot and not yet mailed queues one digest per subscribed address, and those updates are marked
 * with the slot. A project with nothing new sends nothing; an unsubscribed address gets nothing.
 */
export async function sendDigestFor(db: Kysely<Database>, links: MailLinks, slot: DigestSlot, timeZone: string, now = new Date()): Promise<DigestRun | null> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto("digest_runs")
      .values({ slot: slot.slot, slot_at: slot.at.toISOString(), ran_at: now.toISOString(), projects: 0, messages: 0 })
      .onConflict((oc) => oc.column("slot").doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return null;

    const updates = await trx
      .selectFrom("project_updates")
      .innerJoin("projects", "projects.id", "project_updates.project_id")
      .select(["project_updates.id", "project_updates.project_id", "project_updates.body", "project_updates.created_at", "projects.title", "projects.slug"])
      .where("project_updates.digest_slot", "is", null)
      .where("project_updates.created_at", "<=", slot.at.toISOString())
      .where("projects.status", "=", "published")
      .orderBy("project_updates.created_at")
      .orderBy("project_updates.id")
      .execute();

    const byProject = new Map<string, typeof updates>();
    for (const update of updates) byProject.set(update.project_id, [...(byProject.get(update.project_id) ?? []), update]);

    let messages = 0;
    for (const [projectId, projectUpdates] of byProject) {
      const { title, slug } = projectUpdates[0]!;
      const subscribers = await trx
        .selectFrom("contacts")
        .select(["id", "email", "name"])
        .where("project_id", "=", projectId)
        .where("subscribed", "=", true)
        .orderBy("email")
        .orderBy("created_at", "desc")
        .execute();
      const seen = new Set<string>();
      const digests: OutgoingMail[] = [];
      for (const contact of subscribers) {
        if (seen.has(contact.email)) continue;
        seen.add(contact.email);
        digests.push(
          digestMail({
            to: contact.email,
            name: contact.name,
            projectTitle: title,
            updates: projectUpdates.map((update) => ({ body: update.body, createdAt: update.created_at })),
            pitchUrl: links.pitchUrl(slug),
            unsubscribe: links.unsubscribe(contact.id),
            timeZone,
          }),
        );
      }
      messages += await enqueueMails(trx, digests, now);
      await trx
        .updateTable("project_updates")
        .set({ digest_slot: slot.slot })
        .where("id", "in", projectUpdates.map((update) => update.id))
        .execute();
    }
    await trx.updateTable("digest_runs").set({ projects: byProject.size, messages }).where("slot", "=", slot.slot).execute();
    return { slot: slot.slot, projects: byProject.size, messages };
  });
}

/**
 * Runs the weekly digest when its time has come. Only the latest due slot is considered, so a server that was
 * down on Friday catches up once when it is back, and never replays older weeks.
 */
export class DigestScheduler {
  readonly #passes: RecurringPass<DigestRun | null>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly links: MailLinks,
    private readonly schedule: DigestSchedule,
    private readonly logger: Logger,
    private readonly options: {
      clock?: () => Date;
      /** Told when a run queued mail, so delivery starts at once (the mail worker's wake). */
      onMailQueued?: () => void;
    } = {},
  ) {
    this.#passes = new RecurringPass(
      () => this.#runLatest(),
      (error) => this.logger.error({ err: error }, "weekly digest failed"),
    );
  }

  /** Sends the latest due digest unless some instance already did; resolves with what was sent, or null. */
  runDue(): Promise<DigestRun | null> {
    return this.#passes.runOnce();
  }

  /** Runs every `intervalMs`, and once now (a missed run is caught up at start-up). */
  start(intervalMs = 60_000): void {
    this.#passes.start(intervalMs);
    this.#passes.wake();
  }

  stop(): Promise<void> {
    return this.#passes.stop();
  }

  async #runLatest(): Promise<DigestRun | null> {
    const now = this.options.clock?.() ?? new Date();
    const slot = latestDigestSlot(now, this.schedule.hour, this.schedule.timeZone);
    const done = await this.db.selectFrom("digest_runs").select("slot").where("slot", "=", slot.slot).executeTakeFirst();
    if (done) return null;
    const run = await sendDigestFor(this.db, this.links, slot, this.schedule.timeZone, now);
    if (run) this.logger[run.messages ? "info" : "debug"](run, "weekly digest run");
    if (run?.messages) this.options.onMailQueued?.();
    return run;
  }
}
