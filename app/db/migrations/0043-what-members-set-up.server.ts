import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 78: what a member set up goes quiet when they leave the team, and an address has one open invitation.
 * - `webhook_endpoints.added_by`, `project_alert_settings.slack_added_by`, `booth_links.added_by`: who added it
 *   (a push subscription's `user_id` already says whose device it is). Rows made before this migration are the
 *   project owner's as it stands now.
 * - `member_leftovers`: what a removed (or departed) member had set up for the project, disabled until the owner
 *   keeps it (it becomes theirs) or deletes it. `item_id` is the endpoint's, booth link's or push subscription's
 *   id, or `slack` for the project's Slack channel.
 * - `team_invitations_open_key`: at most one open invitation per project and address; the older duplicates an
 *   earlier release left are withdrawn first, the newest staying.
 */
export const whatMembersSetUp: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("webhook_endpoints").addColumn("added_by", "text").execute();
    await db.schema.alterTable("project_alert_settings").addColumn("slack_added_by", "text").execute();
    await db.schema.alterTable("booth_links").addColumn("added_by", "text").execute();
    const ownerOf = (table: string) => sql`(select projects.owner_id from projects where projects.id = ${sql.ref(`${table}.project_id`)})`;
    await db.updateTable("webhook_endpoints").set({ added_by: ownerOf("webhook_endpoints") }).execute();
    await db.updateTable("booth_links").set({ added_by: ownerOf("booth_links") }).execute();
    await db.updateTable("project_alert_settings").set({ slack_added_by: ownerOf("project_alert_settings") }).where("slack_url", "is not", null).execute();

    await db.schema
      .createTable("member_leftovers")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('webhook', 'slack', 'booth', 'push')`))
      .addColumn("item_id", "text", (c) => c.notNull())
      .addColumn("added_by", "text", (c) => c.notNull())
      .addColumn("removed_at", t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint("member_leftovers_pkey", ["project_id", "kind", "item_id"])
      .execute();

    await sql`
      update team_invitations set revoked_at = ${t.now}
      where accepted_at is null and revoked_at is null and exists (
        select 1 from team_invitations newer
        where newer.project_id = team_invitations.project_id and newer.email = team_invitations.email
          and newer.accepted_at is null and newer.revoked_at is null
          and (newer.created_at > team_invitations.created_at or (newer.created_at = team_invitations.created_at and newer.id > team_invitations.id))
      )`.execute(db);
    await db.schema
      .createIndex("team_invitations_open_key")
      .on("team_invitations")
      .columns(["project_id", "email"])
      .unique()
      .where(sql.ref("accepted_at"), "is", null)
      .where(sql.ref("revoked_at"), "is", null)
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("team_invitations_open_key").execute();
    await db.schema.dropTable("member_leftovers").execute();
    await db.schema.alterTable("booth_links").dropColumn("added_by").execute();
    await db.schema.alterTable("project_alert_settings").dropColumn("slack_added_by").execute();
    await db.schema.alterTable("webhook_endpoints").dropColumn("added_by").execute();
  },
};
