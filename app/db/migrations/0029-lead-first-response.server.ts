import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * The response clock: when the founder first answered a lead, null while it waits. A status change
 * counts as the answer. Leads triaged before this keep the time of their latest triage, the nearest the data knows.
 */
export const leadFirstResponse: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("leads").addColumn("first_response_at", t.timestamp).execute();
    await sql`update leads set first_response_at = triaged_at where status <> 'new' and triaged_at is not null`.execute(db);
    await db.schema.createIndex("leads_project_waiting_idx").on("leads").columns(["project_id", "first_response_at", "first_seen_at", "id"]).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("leads_project_waiting_idx").execute();
    await db.schema.alterTable("leads").dropColumn("first_response_at").execute();
  },
};
