import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Replying from a lead (decision 57): what the founder sent a lead, or a call they logged,
 * each a line of the lead's history; the project's follow-up template; and the two things a reply's mail carries
 * that no earlier message did, a Reply-To address and a calendar invitation (RFC 5545 text).
 */
export const leadReplies: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("lead_follow_ups")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("lead_id", "text", (c) => c.notNull().references("leads.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('reply', 'call')`))
      .addColumn("author_id", "text", (c) => c.notNull())
      .addColumn("subject", "text")
      .addColumn("body", "text")
      .addColumn("meeting_starts_at", t.timestamp)
      .addColumn("meeting_minutes", "integer")
      .addColumn("meeting_time_zone", "text")
      .addColumn("mail_id", "text")
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("lead_follow_ups_lead_idx").on("lead_follow_ups").columns(["lead_id", "created_at"]).execute();
    await db.schema
      .createTable("project_reply_templates")
      .addColumn("project_id", "text", (c) => c.primaryKey().references("projects.id").onDelete("cascade"))
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("updated_at", t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.alterTable("mail_outbox").addColumn("reply_to", "text").execute();
    await db.schema.alterTable("mail_outbox").addColumn("calendar_ics", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("mail_outbox").dropColumn("calendar_ics").execute();
    await db.schema.alterTable("mail_outbox").dropColumn("reply_to").execute();
    await db.schema.dropTable("project_reply_templates").execute();
    await db.schema.dropTable("lead_follow_ups").execute();
  },
};
