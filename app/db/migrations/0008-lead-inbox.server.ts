import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

const BACKFILL_BATCH = 500;

/**
 * The founder's lead inbox:
 * - `leads`: one row per person per project (contacts merged by e-mail), kept by every visitor write in its own
 *   transaction like the analytics counters (decision 9), with the founder's private triage (status, note);
 * - `lead_inbox_views`: when each owner last looked at each project's inbox, for 'N new since you last looked';
 * - `project_alert_settings` and `pending_lead_alerts`: founder alerts per e-mail, as a daily summary, or off;
 *   `lead_alert_runs` claims each day's summary once across instances;
 * - `webhook_endpoints` and `webhook_deliveries`: outgoing webhooks, delivered like the mail outbox (decision 10).
 */
export const leadInbox: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("leads")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("first_seen_at", t.timestamp, (c) => c.notNull())
      .addColumn("last_activity_at", t.timestamp, (c) => c.notNull())
      .addColumn("did_intro", t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn("did_subscribe", t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn("did_signal", t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn("event_source", "text")
      .addColumn("status", "text", (c) => c.notNull().defaultTo("new").check(sql`status in ('new', 'contacted', 'meeting', 'passed')`))
      .addColumn("note", "text")
      .addColumn("triaged_at", t.timestamp)
      .addUniqueConstraint("leads_project_email_key", ["project_id", "email"])
      .execute();
    await db.schema.createIndex("leads_project_activity_idx").on("leads").columns(["project_id", "last_activity_at", "id"]).execute();
    await db.schema.createIndex("leads_project_first_seen_idx").on("leads").columns(["project_id", "first_seen_at"]).execute();

    await db.schema
      .createTable("lead_inbox_views")
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("seen_at", t.timestamp, (c) => c.notNull())
      .addColumn("previous_seen_at", t.timestamp)
      .addPrimaryKeyConstraint("lead_inbox_views_pkey", ["user_id", "project_id"])
      .execute();

    const alertMode = (column: string) => sql`${sql.ref(column)} in ('instant', 'daily', 'off')`;
    await db.schema
      .createTable("project_alert_settings")
      .addColumn("project_id", "text", (c) => c.primaryKey().references("projects.id").onDelete("cascade"))
      .addColumn("intro_alerts", "text", (c) => c.notNull().defaultTo("instant").check(alertMode("intro_alerts")))
      .addColumn("signal_alerts", "text", (c) => c.notNull().defaultTo("instant").check(alertMode("signal_alerts")))
      .execute();
    await db.schema
      .createTable("pending_lead_alerts")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('intro', 'signal')`))
      .addColumn("summary", "text", (c) => c.notNull())
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addColumn("summary_slot", "text")
      .execute();
    await db.schema.createIndex("pending_lead_alerts_unsent_idx").on("pending_lead_alerts").columns(["summary_slot", "created_at"]).execute();
    await db.schema
      .createTable("lead_alert_runs")
      .addColumn("slot", "text", (c) => c.primaryKey())
      .addColumn("ran_at", t.timestamp, (c) => c.notNull())
      .addColumn("messages", "integer", (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable("webhook_endpoints")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("webhook_endpoints_project_idx").on("webhook_endpoints").column("project_id").execute();
    await db.schema
      .createTable("webhook_deliveries")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("endpoint_id", "text", (c) => c.notNull().references("webhook_endpoints.id").onDelete("cascade"))
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("event_id", "text", (c) => c.notNull())
      .addColumn("event_type", "text", (c) => c.notNull())
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull().defaultTo("pending").check(sql`status in ('pending', 'sent', 'failed')`))
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", t.timestamp, (c) => c.notNull())
      .addColumn("locked_until", t.timestamp)
      .addColumn("last_error", "text")
      .addColumn("response_status", "integer")
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addColumn("delivered_at", t.timestamp)
      .addUniqueConstraint("webhook_deliveries_endpoint_event_key", ["endpoint_id", "event_id"])
      .execute();
    await db.schema.createIndex("webhook_deliveries_due_idx").on("webhook_deliveries").columns(["status", "next_attempt_at"]).execute();
    await db.schema.createIndex("webhook_deliveries_endpoint_created_idx").on("webhook_deliveries").columns(["endpoint_id", "created_at"]).execute();

    await backfillLeads(db, t.dialect === "sqlite");
  },
};

/** One lead per project and e-mail from the contacts that exist, newest name, first and last activity. */
export async function backfillLeads(db: Kysely<any>, sqlite: boolean) {
  const flag = (condition: ReturnType<typeof sql>) => (sqlite ? sql`max(case when ${condition} then 1 else 0 end)` : sql`bool_or(${condition})`);
  const rows = (await db
    .selectFrom("contacts")
    .leftJoin("signals", "signals.contact_id", "contacts.id")
    .select([
      "contacts.project_id",
      "contacts.email",
      sql<string>`min(contacts.created_at)`.as("first_seen_at"),
      sql<string>`max(contacts.created_at)`.as("last_activity_at"),
      flag(sql`contacts.intent = 'Intro'`).as("did_intro"),
      flag(sql`contacts.intent = 'Subscriber' or contacts.subscribed`).as("did_subscribe"),
      flag(sql`signals.id is not null`).as("did_signal"),
      sql<string | null>`max(signals.event_source)`.as("event_source"),
    ])
    .groupBy(["contacts.project_id", "contacts.email"])
    .execute()) as { project_id: string; email: string; first_seen_at: unknown; last_activity_at: unknown; did_intro: unknown; did_subscribe: unknown; did_signal: unknown; event_source: string | null }[];
  for (let start = 0; start < rows.length; start += BACKFILL_BATCH) {
    const batch = rows.slice(start, start + BACKFILL_BATCH);
    const values = [];
    for (const row of batch) {
      const latest = await db
        .selectFrom("contacts")
        .select("name")
        .where("project_id", "=", row.project_id)
        .where("email", "=", row.email)
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirstOrThrow();
      const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
      const bool = (value: unknown) => (sqlite ? (value ? 1 : 0) : Boolean(value));
      values.push({
        id: crypto.randomUUID(),
        project_id: row.project_id,
        email: row.email,
        name: latest.name,
        first_seen_at: iso(row.first_seen_at),
        last_activity_at: iso(row.last_activity_at),
        did_intro: bool(row.did_intro),
        did_subscribe: bool(row.did_subscribe),
        did_signal: bool(row.did_signal),
        event_source: row.event_source,
      });
    }
    await db.insertInto("leads").values(values).execute();
  }
}
