import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Every e-mail is written here in the same transaction as the event that causes it, then delivered by the
 * mail worker: nothing is lost when the SMTP server is down, and nothing is sent twice.
 */
export const mailOutbox: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("mail_outbox")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("recipient", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("text_body", "text", (c) => c.notNull())
      .addColumn("html_body", "text")
      .addColumn("mail_headers", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
      .addColumn("status", "text", (c) => c.notNull().defaultTo("pending").check(sql`status in ('pending', 'sent', 'failed')`))
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .addColumn("locked_until", t.timestamp)
      .addColumn("last_error", "text")
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .addColumn("sent_at", t.timestamp)
      .execute();
    await db.schema.createIndex("mail_outbox_due_idx").on("mail_outbox").columns(["status", "next_attempt_at"]).execute();
  },
};
