import { type Kysely, type Migration } from "kysely";

/**
 * What the public pitch page writes: exact scan aggregates kept as scans arrive (so analytics never scan
 * the scans table), and a fixed-window rate limit for the public forms.
 */
export const visitorActions: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("project_stats")
      .addColumn("project_id", "text", (c) => c.primaryKey().references("projects.id").onDelete("cascade"))
      .addColumn("total_scans", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("unique_scans", "integer", (c) => c.notNull().defaultTo(0))
      .execute();

    // The set of viewers seen per project and per QR code: a scan is unique when its fingerprint is new here.
    await db.schema
      .createTable("project_viewers")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("viewer_fingerprint", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("project_viewers_pk", ["project_id", "viewer_fingerprint"])
      .execute();
    await db.schema
      .createTable("qr_code_viewers")
      .addColumn("qr_code_id", "text", (c) => c.notNull().references("qr_codes.id").onDelete("cascade"))
      .addColumn("viewer_fingerprint", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("qr_code_viewers_pk", ["qr_code_id", "viewer_fingerprint"])
      .execute();

    await db.schema
      .createTable("form_rate_limits")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("window_started_at", "bigint", (c) => c.notNull())
      .addColumn("count", "integer", (c) => c.notNull())
      .execute();

    await db.schema.createIndex("contacts_project_email_idx").on("contacts").columns(["project_id", "email"]).execute();
    await db.schema.createIndex("signals_project_public_idx").on("signals").columns(["project_id", "is_public"]).execute();
  },
};
