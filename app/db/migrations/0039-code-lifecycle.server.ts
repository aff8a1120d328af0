import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 64: a printed code is archived rather than deleted, re-pointed to another of the
 * founder's projects, and may name the day its event ends.
 * - `qr_codes.archived_at`: when it left the active list (null: active). It still opens the pitch and counts.
 * - `qr_codes.event_ends_on`: the event's last day, `YYYY-MM-DD` (text on both databases: a calendar day, no zone).
 * - `qr_code_moves`: each re-pointing, from which project to which, so the project a code left still names it for
 *   the scans it counted there (scans keep their `project_id`).
 */
export const codeLifecycle: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("qr_codes").addColumn("archived_at", t.timestamp).execute();
    await db.schema.alterTable("qr_codes").addColumn("event_ends_on", "text").execute();
    await db.schema
      .createTable("qr_code_moves")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("qr_code_id", "text", (c) => c.notNull().references("qr_codes.id").onDelete("cascade"))
      .addColumn("from_project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("to_project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("moved_at", t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("qr_code_moves_from_idx").on("qr_code_moves").column("from_project_id").execute();
    await db.schema.createIndex("qr_code_moves_code_idx").on("qr_code_moves").column("qr_code_id").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("qr_code_moves").execute();
    await db.schema.alterTable("qr_codes").dropColumn("event_ends_on").execute();
    await db.schema.alterTable("qr_codes").dropColumn("archived_at").execute();
  },
};
