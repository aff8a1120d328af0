import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 56: founder alerts on a second and third channel.
 * - `push_subscriptions`: one row per device a founder turned notifications on for (its push service endpoint and
 *   the keys its browser generated); the endpoint is unique, so subscribing a device again replaces its row.
 * - `project_alert_settings` gains, per project and kind, whether pushes go out (`push_*`), and the project's
 *   Slack incoming-webhook URL with its own per-kind switches (`slack_*`).
 * - `alert_deliveries`: pushes and Slack posts queued with the visitor's write and delivered like webhooks
 *   (claim, retry, once); a delivery goes with its subscription.
 */
export const founderPush: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("push_subscriptions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("endpoint", "text", (c) => c.notNull().unique())
      .addColumn("p256dh", "text", (c) => c.notNull())
      .addColumn("auth", "text", (c) => c.notNull())
      .addColumn("device", "text", (c) => c.notNull())
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("push_subscriptions_user_idx").on("push_subscriptions").column("user_id").execute();

    for (const column of ["push_intro", "push_signal", "push_follow", "slack_intro", "slack_signal", "slack_follow"]) {
      await db.schema
        .alterTable("project_alert_settings")
        .addColumn(column, t.boolean, (c) => c.notNull().defaultTo(t.true))
        .execute();
    }
    await db.schema.alterTable("project_alert_settings").addColumn("slack_url", "text").execute();

    await db.schema
      .createTable("alert_deliveries")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("channel", "text", (c) => c.notNull().check(sql`channel in ('push', 'slack')`))
      .addColumn("push_subscription_id", "text", (c) => c.references("push_subscriptions.id").onDelete("cascade"))
      .addColumn("slack_url", "text")
      .addColumn("event_id", "text", (c) => c.notNull())
      /** The subscription's id or 'slack': each event is queued once per target. */
      .addColumn("target", "text", (c) => c.notNull())
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull().defaultTo("pending").check(sql`status in ('pending', 'sent', 'failed')`))
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", t.timestamp, (c) => c.notNull())
      .addColumn("locked_until", t.timestamp)
      .addColumn("claimed_by", "text")
      .addColumn("attempt_started_at", t.timestamp)
      .addColumn("last_error", "text")
      .addColumn("response_status", "integer")
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addColumn("delivered_at", t.timestamp)
      .addUniqueConstraint("alert_deliveries_target_event_key", ["target", "event_id"])
      .addCheckConstraint("alert_deliveries_channel_target", sql`(channel = 'push' and slack_url is null) or (channel = 'slack' and push_subscription_id is null and slack_url is not null)`)
      .execute();
    await db.schema.createIndex("alert_deliveries_due_idx").on("alert_deliveries").columns(["status", "next_attempt_at"]).execute();
    await db.schema.createIndex("alert_deliveries_subscription_idx").on("alert_deliveries").column("push_subscription_id").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("alert_deliveries").execute();
    for (const column of ["push_intro", "push_signal", "push_follow", "slack_intro", "slack_signal", "slack_follow", "slack_url"]) {
      await db.schema.alterTable("project_alert_settings").dropColumn(column).execute();
    }
    await db.schema.dropTable("push_subscriptions").execute();
  },
};
