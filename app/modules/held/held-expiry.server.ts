import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import { RecurringPass } from "~/modules/jobs/recurring-pass.server";
import { VISITOR_FORM_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import { HELD_FORM_DAYS } from "./held-forms";
import { DAY_MS } from "~/modules/time/units";

const JOB = "held-expiry";

export type HeldExpiryRun = { heldForms: number; refusals: number };

/**
 * Deletes held forms sent more than HELD_FORM_DAYS ago, and the tallies of refused forms as old (decision 80): once
 * an hour, checked every 10 minutes. The instance that inserts the hour's row in `recurring_job_runs` runs it; the
 * others find it claimed and do nothing (null). Its own claims older than that go with them, and so do the
 * receipts of accepted forms past the burst window.
 */
export class HeldFormExpiry extends RecurringPass<HeldExpiryRun | null> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly options: { clock?: () => Date } = {},
  ) {
    super();
  }

  /** Runs every `intervalMs`, and once now. */
  override start(intervalMs = 10 * 60_000): void {
    super.start(intervalMs);
    this.wake();
  }

  protected async pass(): Promise<HeldExpiryRun | null> {
    const now = this.options.clock?.() ?? new Date();
    const slot = now.toISOString().slice(0, 13);
    const before = new Date(now.getTime() - HELD_FORM_DAYS * DAY_MS).toISOString();
    const run = await this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto("recurring_job_runs")
        .values({ job: JOB, slot, started_at: now.toISOString() })
        .onConflict((oc) => oc.columns(["job", "slot"]).doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return null;
      const held = await trx.deleteFrom("held_submissions").where("received_at", "<", before).executeTakeFirst();
      const refusals = await trx.deleteFrom("form_refusals").where("refused_at", "<", before).executeTakeFirst();
      // Receipts of accepted forms past the burst window (decision 95); each browser's next form drops its own.
      const receiptsBefore = new Date(now.getTime() - VISITOR_FORM_LIMITS.burstPerBrowser.windowSeconds * 1000).toISOString();
      await trx.deleteFrom("accepted_forms").where("received_at", "<", receiptsBefore).execute();
      await trx.deleteFrom("recurring_job_runs").where("job", "=", JOB).where("started_at", "<", before).execute();
      return { heldForms: Number(held.numDeletedRows), refusals: Number(refusals.numDeletedRows) };
    });
    if (run && (run.heldForms || run.refusals)) this.logger.info(run, `held forms older than ${HELD_FORM_DAYS} days deleted`);
    return run;
  }

  protected passFailed(error: unknown): void {
    this.logger.error({ err: error }, "deleting old held forms failed");
  }
}
