import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Visitor forms held for the founder's review instead of refused (decision 50): what the person sent, why
 * it was held and when, counted nowhere until the founder accepts it. `browser_key` lets the next form from the same
 * browser be held too (a flood is held from its first suspicious form on). The scans index serves the speed check
 * (how long after this browser opened the page a form came).
 */
export const heldSubmissions: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("held_submissions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("intent", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("submitted_fields", t.json, (c) => c.notNull())
      .addColumn("reason", "text", (c) => c.notNull())
      .addColumn("reason_text", "text", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("user_id", "text")
      .addColumn("browser_key", "text", (c) => c.notNull())
      .addColumn("received_at", t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("held_submissions_project_received_idx").on("held_submissions").columns(["project_id", "received_at"]).execute();
    await db.schema.createIndex("held_submissions_browser_idx").on("held_submissions").columns(["project_id", "browser_key", "received_at"]).execute();
    await db.schema.createIndex("scans_project_viewer_scanned_idx").on("scans").columns(["project_id", "viewer_fingerprint", "scanned_at"]).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("scans_project_viewer_scanned_idx").execute();
    await db.schema.dropTable("held_submissions").execute();
  },
};
