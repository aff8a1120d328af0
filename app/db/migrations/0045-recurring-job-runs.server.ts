import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 80: `recurring_job_runs`, one row per recurring job and slot (the UTC hour it ran for),
 * inserted first by the instance that runs it, so a job such as deleting held forms after 30 days runs once across
 * instances; and an index for that deletion by age.
 */
export const recurringJobRuns: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("recurring_job_runs")
      .addColumn("job", "text", (c) => c.notNull())
      .addColumn("slot", "text", (c) => c.notNull())
      .addColumn("started_at", t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint("recurring_job_runs_pk", ["job", "slot"])
      .execute();
    await db.schema.createIndex("held_submissions_received_idx").on("held_submissions").column("received_at").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("held_submissions_received_idx").execute();
    await db.schema.dropTable("recurring_job_runs").execute();
  },
};
