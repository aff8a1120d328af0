import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/** Every entity, plus the tables better-auth needs (snake_case, mapped in auth.server.ts). */
export const initial: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);

    await db.schema
      .createTable("users")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("email_verified", t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn("image", "text")
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();

    await db.schema
      .createTable("sessions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("token", "text", (c) => c.notNull().unique())
      .addColumn("expires_at", t.timestamp, (c) => c.notNull())
      .addColumn("ip_address", "text")
      .addColumn("user_agent", "text")
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();
    await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();

    await db.schema
      .createTable("accounts")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("account_id", "text", (c) => c.notNull())
      .addColumn("provider_id", "text", (c) => c.notNull())
      .addColumn("access_token", "text")
      .addColumn("refresh_token", "text")
      .addColumn("id_token", "text")
      .addColumn("access_token_expires_at", t.timestamp)
      .addColumn("refresh_token_expires_at", t.timestamp)
      .addColumn("scope", "text")
      .addColumn("password", "text")
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();
    await db.schema.createIndex("accounts_user_id_idx").on("accounts").column("user_id").execute();

    await db.schema
      .createTable("verifications")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("identifier", "text", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("expires_at", t.timestamp, (c) => c.notNull())
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();
    await db.schema.createIndex("verifications_identifier_idx").on("verifications").column("identifier").execute();

    await db.schema
      .createTable("rate_limits")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("key", "text", (c) => c.notNull().unique())
      .addColumn("count", "integer", (c) => c.notNull())
      .addColumn("last_request", "bigint", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("projects")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("owner_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("slug", "text", (c) => c.notNull().unique())
      .addColumn("one_liner", "text", (c) => c.notNull())
      .addColumn("summary", "text")
      .addColumn("video_url", "text")
      .addColumn("deck_url", "text")
      .addColumn("calendly_url", "text")
      .addColumn("metrics", t.json, (c) => c.notNull().defaultTo(t.emptyList))
      .addColumn("problem_points", t.json, (c) => c.notNull().defaultTo(t.emptyList))
      .addColumn("solution_points", t.json, (c) => c.notNull().defaultTo(t.emptyList))
      .addColumn("status", "text", (c) => c.notNull().defaultTo("draft").check(sql`status in ('draft', 'published')`))
      .addColumn("last_shipped_at", t.timestamp)
      // Bumped by every write that changes what the public pitch page shows; the page cache validates on it.
      .addColumn("content_version", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .addColumn("updated_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();
    await db.schema.createIndex("projects_owner_created_idx").on("projects").columns(["owner_id", "created_at"]).execute();

    await db.schema
      .createTable("qr_codes")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("label", "text", (c) => c.notNull().check(sql`length(label) between 1 and 100`))
      .addColumn("event_tag", "text", (c) => c.check(sql`event_tag is null or length(event_tag) between 1 and 50`))
      .addColumn("total_scans", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("unique_scans", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();
    await db.schema.createIndex("qr_codes_project_created_idx").on("qr_codes").columns(["project_id", "created_at"]).execute();

    const scans = db.schema.createTable("scans");
    await (t.dialect === "postgres"
      ? scans.addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
      : scans.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    )
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("qr_code_id", "text", (c) => c.references("qr_codes.id").onDelete("set null"))
      .addColumn("viewer_fingerprint", "text")
      .addColumn("scanned_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();
    await db.schema.createIndex("scans_project_scanned_idx").on("scans").columns(["project_id", "scanned_at"]).execute();
    await db.schema.createIndex("scans_qr_code_scanned_idx").on("scans").columns(["qr_code_id", "scanned_at"]).execute();

    await db.schema
      .createTable("contacts")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("intent", "text", (c) => c.notNull().check(sql`intent in ('Intro', 'Supporter', 'Subscriber')`))
      .addColumn("subscribed", t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn("role_tags", t.json, (c) => c.notNull().defaultTo(t.emptyList))
      .addColumn("linkedin_url", "text")
      .addColumn("note", "text")
      .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();
    await db.schema.createIndex("contacts_project_created_idx").on("contacts").columns(["project_id", "created_at"]).execute();
    await db.schema.createIndex("contacts_email_idx").on("contacts").column("email").execute();

    await db.schema
      .createTable("signal_tiers")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("range_label", "text", (c) => c.notNull())
      .addColumn("range_min", "bigint", (c) => c.notNull().check(sql`range_min >= 0`))
      .addColumn("range_max", "bigint", (c) => c.check(sql`range_max is null or range_max >= range_min`))
      .addColumn("perks", t.json, (c) => c.notNull().defaultTo(t.emptyList))
      .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("signal_tiers_project_order_idx").on("signal_tiers").columns(["project_id", "sort_order"]).execute();

    await db.schema
      .createTable("signals")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("contact_id", "text", (c) => c.notNull().references("contacts.id").onDelete("cascade"))
      .addColumn("signal_tier_id", "text", (c) => c.references("signal_tiers.id").onDelete("set null"))
      .addColumn("range_label", "text", (c) => c.notNull())
      .addColumn("range_min", "bigint", (c) => c.notNull())
      .addColumn("range_max", "bigint")
      .addColumn("amount", "bigint", (c) => c.notNull())
      .addColumn("event_source", "text")
      .addColumn("is_public", t.boolean, (c) => c.notNull().defaultTo(t.true))
      .addColumn("message", "text")
      .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();
    await db.schema.createIndex("signals_project_created_idx").on("signals").columns(["project_id", "created_at"]).execute();
    await db.schema.createIndex("signals_contact_idx").on("signals").column("contact_id").execute();
    await db.schema.createIndex("signals_user_idx").on("signals").column("user_id").execute();

    // Integer ids: the live wall stream uses them as its resume cursor (SSE Last-Event-ID).
    const wall = db.schema.createTable("recognition_entries");
    await (t.dialect === "postgres"
      ? wall.addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
      : wall.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    )
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("type", "text", (c) => c.notNull().check(sql`type in ('Intro', 'Supporter', 'Pilot')`))
      .addColumn("display_name", "text", (c) => c.notNull())
      .addColumn("role_tags", t.json, (c) => c.notNull().defaultTo(t.emptyList))
      .addColumn("message", "text")
      .addColumn("is_public", t.boolean, (c) => c.notNull().defaultTo(t.true))
      // Set by the founder to take an entry off the public wall.
      .addColumn("hidden", t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();
    await db.schema
      .createIndex("recognition_entries_project_created_idx")
      .on("recognition_entries")
      .columns(["project_id", "created_at"])
      .execute();
  },
};
