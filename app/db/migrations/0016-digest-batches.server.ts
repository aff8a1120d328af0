import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * The weekly digest is queued in batches, each its own short transaction (decision "digest-batches"):
 * `digest_runs` keeps where the run is (`cursor_project_id`, `cursor_email`: the last address queued) and when it
 * finished, so a restart continues after the last committed batch. The daily lead summaries go the same way, a
 * batch of projects at a time (`lead_alert_runs.finished_at`; the lines they mail are marked, so they need no cursor).
 * Runs recorded before this were queued whole.
 */
export const digestBatches: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("digest_runs").addColumn("cursor_project_id", "text").execute();
    await db.schema.alterTable("digest_runs").addColumn("cursor_email", "text").execute();
    await db.schema.alterTable("digest_runs").addColumn("finished_at", t.timestamp).execute();
    await sql`update digest_runs set finished_at = ran_at`.execute(db);
    await db.schema.alterTable("lead_alert_runs").addColumn("finished_at", t.timestamp).execute();
    await sql`update lead_alert_runs set finished_at = ran_at`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("lead_alert_runs").dropColumn("finished_at").execute();
    await db.schema.alterTable("digest_runs").dropColumn("finished_at").execute();
    await db.schema.alterTable("digest_runs").dropColumn("cursor_email").execute();
    await db.schema.alterTable("digest_runs").dropColumn("cursor_project_id").execute();
  },
};
