import { type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * A project's deck: each uploaded PDF is a `decks` row, rendered in the background into `deck_pages` (one row
 * per page with its shape; the images are in file storage under `decks/{id}/`). The row is also the durable job:
 * a renderer claims it with a lease (`claimed_by`, `claimed_until`), so a render stopped by a crash is taken up by
 * the next pass on any instance, from the first page not yet done. `projects.deck_id` names the deck the pitch
 * page shows; it changes only when a new deck is ready, or is removed.
 */
export const decks: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("decks")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("file_name", "text", (c) => c.notNull())
      .addColumn("file_bytes", "integer", (c) => c.notNull())
      .addColumn("page_count", "integer")
      .addColumn("pages_done", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("refusal_reason", "text")
      .addColumn("refusal_message", "text")
      .addColumn("uploaded_by", "text", (c) => c.notNull())
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addColumn("finished_at", t.timestamp)
      .addColumn("claimed_by", "text")
      .addColumn("claimed_until", t.timestamp)
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("decks_project_idx").on("decks").columns(["project_id", "created_at"]).execute();
    await db.schema.createIndex("decks_status_idx").on("decks").columns(["status", "claimed_until"]).execute();
    await db.schema
      .createTable("deck_pages")
      .addColumn("deck_id", "text", (c) => c.notNull().references("decks.id").onDelete("cascade"))
      .addColumn("page_number", "integer", (c) => c.notNull())
      .addColumn("width", "integer", (c) => c.notNull())
      .addColumn("height", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("deck_pages_pk", ["deck_id", "page_number"])
      .execute();
    await db.schema.alterTable("projects").addColumn("deck_id", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("projects").dropColumn("deck_id").execute();
    await db.schema.dropTable("deck_pages").execute();
    await db.schema.dropTable("decks").execute();
  },
};
