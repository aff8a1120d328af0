import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * People a founder met and added at the booth or from the inbox (decision 62): one row per capture,
 * merged into the project's lead for that e-mail. `idempotency_key` is the capturing device's UUID for it, unique per
 * project, so a capture sent again (an offline phone's queue) is the same capture; `request_fingerprint` tells a
 * repeat from another capture under a reused key. `source` is the code the booth showed (`qr:{id}` or `direct`),
 * named at read time as every source is (decision 54). `added_by` is the signed-in user (no foreign key: a capture
 * outlives a member who leaves, as a reply's author does).
 */
export const leadCaptures: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("lead_captures")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("lead_id", "text", (c) => c.notNull().references("leads.id").onDelete("cascade"))
      .addColumn("idempotency_key", "text", (c) => c.notNull())
      .addColumn("request_fingerprint", "text", (c) => c.notNull())
      .addColumn("lead_outcome", "text", (c) => c.notNull().check(sql`lead_outcome in ('created', 'merged')`))
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("added_by", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("linkedin_url", "text")
      .addColumn("temperature", "text", (c) => c.check(sql`temperature in ('hot', 'warm', 'cold')`))
      .addColumn("note", "text")
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addUniqueConstraint("lead_captures_key_unique", ["project_id", "idempotency_key"])
      .execute();
    await db.schema.createIndex("lead_captures_lead_idx").on("lead_captures").columns(["lead_id", "created_at"]).execute();
    await db.schema.createIndex("lead_captures_source_idx").on("lead_captures").columns(["project_id", "source"]).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("lead_captures").execute();
  },
};
