import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 61: a project's team.
 * - `project_members`: everyone on a project but its owner (`projects.owner_id` stays the one owner), with a role.
 * - `team_invitations`: an invitation to one address for one role, single use, 7 days; only the token's hash is kept.
 * - `lead_events`: who changed a lead's status, temperature or note, and when (replies and calls are already kept
 *   with their author in `lead_follow_ups`).
 * - `member_alert_settings`: each member's own e-mail alerts and pushes per project; the owner's come from the
 *   project's settings so far.
 * - `pending_lead_alerts.user_id`: whose daily summary a kept line belongs to (null: the owner's, as before).
 */
export const projectTeams: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("project_members")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('co-founder', 'staff', 'viewer')`))
      .addColumn("added_by", "text")
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint("project_members_pkey", ["project_id", "user_id"])
      .execute();
    await db.schema.createIndex("project_members_user_idx").on("project_members").column("user_id").execute();

    await db.schema
      .createTable("team_invitations")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('co-founder', 'staff', 'viewer')`))
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("invited_by", "text", (c) => c.notNull())
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addColumn("expires_at", t.timestamp, (c) => c.notNull())
      .addColumn("accepted_at", t.timestamp)
      .addColumn("accepted_by", "text")
      .addColumn("revoked_at", t.timestamp)
      .execute();
    await db.schema.createIndex("team_invitations_project_idx").on("team_invitations").columns(["project_id", "created_at"]).execute();

    await db.schema
      .createTable("lead_events")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("lead_id", "text", (c) => c.notNull().references("leads.id").onDelete("cascade"))
      .addColumn("actor_id", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('status', 'temperature', 'note')`))
      .addColumn("value", "text")
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("lead_events_lead_idx").on("lead_events").columns(["lead_id", "created_at"]).execute();

    await db.schema
      .createTable("member_alert_settings")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("intro_alerts", "text", (c) => c.notNull().defaultTo("off").check(sql`intro_alerts in ('instant', 'daily', 'off')`))
      .addColumn("signal_alerts", "text", (c) => c.notNull().defaultTo("off").check(sql`signal_alerts in ('instant', 'daily', 'off')`))
      .addColumn("push_intro", t.boolean, (c) => c.notNull().defaultTo(t.true))
      .addColumn("push_signal", t.boolean, (c) => c.notNull().defaultTo(t.true))
      .addColumn("push_follow", t.boolean, (c) => c.notNull().defaultTo(t.true))
      .addPrimaryKeyConstraint("member_alert_settings_pkey", ["project_id", "user_id"])
      .execute();

    await db.schema.alterTable("pending_lead_alerts").addColumn("user_id", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("pending_lead_alerts").dropColumn("user_id").execute();
    await db.schema.dropTable("member_alert_settings").execute();
    await db.schema.dropTable("lead_events").execute();
    await db.schema.dropTable("team_invitations").execute();
    await db.schema.dropTable("project_members").execute();
  },
};
