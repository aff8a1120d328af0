import { type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * A visitor form's receipt for the burst window (decision 95): what an accepted form wrote, by browser, so that when
 * the same browser's next form turns out to be part of a burst, the forms it already had accepted are moved to held
 * as well. Receipts are dropped once they are older than the window. And a held form keeps the time the person
 * sent it (`sent_at`, a phone's offline time included), which accepting restores.
 */
export const acceptedForms: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("accepted_forms")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("browser_key", "text", (c) => c.notNull())
      .addColumn("intent", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("submitted_fields", t.json, (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("user_id", "text")
      .addColumn("sent_at", t.timestamp, (c) => c.notNull())
      .addColumn("received_at", t.timestamp, (c) => c.notNull())
      .addColumn("receipt", t.json, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("accepted_forms_browser_idx").on("accepted_forms").columns(["project_id", "browser_key", "received_at"]).execute();
    await db.schema.createIndex("accepted_forms_received_idx").on("accepted_forms").columns(["received_at"]).execute();
    await db.schema.alterTable("held_submissions").addColumn("sent_at", t.timestamp).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("held_submissions").dropColumn("sent_at").execute();
    await db.schema.dropTable("accepted_forms").execute();
  },
};
