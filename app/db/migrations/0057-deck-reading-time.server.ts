import { type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Reading time on the deck (decision 99). A `deck_views` row is one opening of the deck reader on one page load,
 * by one viewer; its beats (`deck_beats`, once per view and sequence number, with the span of reader time they
 * cover) add to its pages' seconds (`deck_view_pages`). `lead_viewers` ties the door's viewer to the lead its
 * forms wrote, so reading before or after the form belongs to that person.
 */
export const deckReadingTime: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("deck_views")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("deck_id", "text", (c) => c.notNull())
      .addColumn("viewer_fingerprint", "text")
      .addColumn("address_hash", "text")
      .addColumn("audience", "text", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("lead_id", "text")
      .addColumn("started_at", t.timestamp, (c) => c.notNull())
      .addColumn("last_beat_at", t.timestamp, (c) => c.notNull())
      .addColumn("ms", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("pages", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("summary_state", "text")
      .execute();
    await db.schema.createIndex("deck_views_deck_idx").on("deck_views").columns(["deck_id", "audience"]).execute();
    await db.schema.createIndex("deck_views_viewer_idx").on("deck_views").columns(["project_id", "viewer_fingerprint"]).execute();
    await db.schema.createIndex("deck_views_lead_idx").on("deck_views").columns(["lead_id"]).execute();
    await db.schema.createIndex("deck_views_summary_idx").on("deck_views").columns(["summary_state", "last_beat_at"]).execute();
    await db.schema
      .createTable("deck_view_pages")
      .addColumn("view_id", "text", (c) => c.notNull().references("deck_views.id").onDelete("cascade"))
      .addColumn("page_number", "integer", (c) => c.notNull())
      .addColumn("ms", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("deck_view_pages_pk", ["view_id", "page_number"])
      .execute();
    await db.schema
      .createTable("deck_beats")
      .addColumn("view_id", "text", (c) => c.notNull().references("deck_views.id").onDelete("cascade"))
      .addColumn("seq", "integer", (c) => c.notNull())
      .addColumn("from_ms", "integer", (c) => c.notNull())
      .addColumn("to_ms", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("deck_beats_pk", ["view_id", "seq"])
      .execute();
    await db.schema
      .createTable("lead_viewers")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("viewer_fingerprint", "text", (c) => c.notNull())
      .addColumn("lead_id", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("lead_viewers_pk", ["project_id", "viewer_fingerprint"])
      .execute();
    await db.schema.createIndex("lead_viewers_lead_idx").on("lead_viewers").columns(["lead_id"]).execute();
    await db.schema.alterTable("project_alert_settings").addColumn("push_reading", t.boolean, (c) => c.notNull().defaultTo(t.true)).execute();
    await db.schema.alterTable("project_alert_settings").addColumn("slack_reading", t.boolean, (c) => c.notNull().defaultTo(t.true)).execute();
    await db.schema.alterTable("member_alert_settings").addColumn("push_reading", t.boolean, (c) => c.notNull().defaultTo(t.true)).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("member_alert_settings").dropColumn("push_reading").execute();
    await db.schema.alterTable("project_alert_settings").dropColumn("slack_reading").execute();
    await db.schema.alterTable("project_alert_settings").dropColumn("push_reading").execute();
    await db.schema.dropTable("lead_viewers").execute();
    await db.schema.dropTable("deck_beats").execute();
    await db.schema.dropTable("deck_view_pages").execute();
    await db.schema.dropTable("deck_views").execute();
  },
};
