import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 79: 'Send now' is queued in batches like the digest, and a team's own subscriptions wait for the address.
 * - `digest_runs.project_id`, `digest_runs.time_zone`: a run of one update sent now (slot `now:{update id}`) names
 *   its project (the daily limit counts these) and the zone its dates are written in, so any instance that
 *   continues it writes the same e-mail. Null for a Friday's run.
 * - `contacts.awaiting_confirmation`: a subscription the project's own team typed in, not yet confirmed by the
 *   address; it gets no update until it is.
 */
export const sentNowRuns: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("digest_runs").addColumn("project_id", "text", (c) => c.references("projects.id").onDelete("cascade")).execute();
    await db.schema.alterTable("digest_runs").addColumn("time_zone", "text").execute();
    await db.schema.createIndex("digest_runs_project_idx").on("digest_runs").columns(["project_id", "ran_at"]).execute();
    await db.schema
      .alterTable("contacts")
      .addColumn("awaiting_confirmation", t.boolean, (c) => c.notNull().defaultTo(t.false))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("contacts").dropColumn("awaiting_confirmation").execute();
    await db.schema.dropIndex("digest_runs_project_idx").execute();
    await db.schema.alterTable("digest_runs").dropColumn("time_zone").execute();
    await db.schema.alterTable("digest_runs").dropColumn("project_id").execute();
  },
};
