import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * A claim on a queued e-mail or webhook delivery names its holder (`claimed_by`, one id per worker), so only the
 * holder can mark it sent, and `attempt_started_at` records when the holder began sending it, while the outcome is
 * unknown (decision 24). Existing rows keep null: a pending row with an expired claim is claimed again as before.
 */
export const deliveryClaimOwner: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    for (const table of ["mail_outbox", "webhook_deliveries"]) {
      await db.schema.alterTable(table).addColumn("claimed_by", "text").execute();
      await db.schema.alterTable(table).addColumn("attempt_started_at", t.timestamp).execute();
    }
  },
};
