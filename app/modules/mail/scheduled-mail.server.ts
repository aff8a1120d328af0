import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import type { DigestSlot } from "~/modules/time/zoned-slots";
import { RecurringPass } from "~/modules/jobs/recurring-pass.server";

export type ScheduledMailProgress = { messages: number; finished: boolean };

export type ScheduledMailOptions = {
  clock?: () => Date;
  /** Told when a run queued mail, so delivery starts at once (the mail worker's wake). */
  onMailQueued?: () => void;
  /** Messages (or projects) queued per transaction; each run's own default when omitted. */
  batchSize?: number;
};

export type ScheduledSendOptions = { resume: boolean; stopping: AbortSignal; batchSize?: number };

/**
 * Mail sent at a scheduled slot (the weekly digest, the daily lead summaries), checked every minute. Only the latest
 * due slot is considered, so a server that was down catches up once when it is back and never replays older slots;
 * a slot's run is recorded in `runsTable`, and a run recorded but not finished (a shutdown, a crash) is continued.
 */
export abstract class ScheduledMail<Run extends ScheduledMailProgress> extends RecurringPass<Run | null> {
  protected abstract readonly description: string;
  protected abstract readonly runsTable: "digest_runs" | "lead_alert_runs";

  constructor(
    protected readonly db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly options: ScheduledMailOptions,
  ) {
    super();
  }

  protected abstract latestSlot(now: Date): DigestSlot;

  /** Claims the slot's run (or, with `resume`, continues it) and queues its mail; null when another instance has it. */
  protected abstract send(slot: DigestSlot, now: Date, options: ScheduledSendOptions): Promise<Run | null>;

  /** Continues runs that are not a slot's (each resolves how many messages it queued); none by default. */
  protected continueOtherRuns(_now: Date, _options: ScheduledSendOptions): Promise<number> {
    return Promise.resolve(0);
  }

  /** Runs every `intervalMs`, and once now (a missed run is caught up at start-up). */
  override start(intervalMs = 60_000): void {
    super.start(intervalMs);
    this.wake();
  }

  protected async pass(stopping: AbortSignal): Promise<Run | null> {
    const now = this.options.clock?.() ?? new Date();
    if ((await this.continueOtherRuns(now, { resume: true, stopping, batchSize: this.options.batchSize })) > 0) this.options.onMailQueued?.();
    const slot = this.latestSlot(now);
    const recorded = await this.db.selectFrom(this.runsTable).select("finished_at").where("slot", "=", slot.slot).executeTakeFirst();
    if (recorded?.finished_at) return null;
    const run = await this.send(slot, now, { resume: recorded !== undefined, stopping, batchSize: this.options.batchSize });
    if (run) this.#log(run);
    if (run?.messages) this.options.onMailQueued?.();
    return run;
  }

  #log(run: ScheduledMailProgress): void {
    this.logger[run.messages ? "info" : "debug"](run, run.finished ? `${this.description} queued` : `${this.description} stopped; the next pass continues it`);
  }

  protected passFailed(error: unknown): void {
    this.logger.error({ err: error }, `${this.description} failed`);
  }
}

/**
 * Queues a run batch by batch (`queueBatch` answers how many it queued, or null when nothing is left), each batch
 * its own transaction, yielding to the event loop between batches so requests are answered meanwhile, and ending
 * early when `stopping` is aborted. Null when a resumed run had nothing left (another instance finished it).
 */
export async function queueInBatches(
  queueBatch: () => Promise<number | null>,
  options: { resume?: boolean; stopping?: AbortSignal },
): Promise<ScheduledMailProgress | null> {
  let messages = 0;
  let first = true;
  for (;;) {
    if (options.stopping?.aborted) return { messages, finished: false };
    const queued = await queueBatch();
    if (queued === null) return first && options.resume ? null : { messages, finished: true };
    first = false;
    messages += queued;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
