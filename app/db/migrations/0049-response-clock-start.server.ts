import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Where a lead's response clock starts (decision 84): its first visitor action, or when the founder marked a person
 * met in person as awaiting a follow-up; null for a person only met in person, who waits for nobody. Leads with a
 * visitor action start at their first action, as the clock did; a capture was never an answer, so a lead only met in
 * person loses the response it was given at the capture.
 */
export const responseClockStart: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("leads").addColumn("awaiting_since", t.timestamp).execute();
    await sql`update leads set awaiting_since = first_seen_at where did_intro or did_subscribe or did_signal`.execute(db);
    await sql`update leads set first_response_at = null where awaiting_since is null`.execute(db);
    await db.schema.createIndex("leads_project_awaiting_idx").on("leads").columns(["project_id", "first_response_at", "awaiting_since", "id"]).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("leads_project_awaiting_idx").execute();
    await db.schema.alterTable("leads").dropColumn("awaiting_since").execute();
  },
};
