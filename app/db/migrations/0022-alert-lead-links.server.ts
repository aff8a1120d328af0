import type { Kysely, Migration } from "kysely";

/**
 * Founder alerts link to the lead in the inbox: a line kept for the daily summary remembers its lead,
 * so the summary links each line to that person. Lines kept before this have none and link to the inbox.
 */
export const alertLeadLinks: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("pending_lead_alerts").addColumn("lead_id", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("pending_lead_alerts").dropColumn("lead_id").execute();
  },
};
