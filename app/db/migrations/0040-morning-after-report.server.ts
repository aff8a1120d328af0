import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 66: the morning-after report.
 * - `mail_outbox.attachments`: files a message carries (the contacts CSV), as a JSON list of
 *   `{ filename, contentType, content }`; null for the messages without any.
 * - `project_alert_settings.morning_report`: whether the project's founders get the report (on unless turned off).
 * - `morning_reports`: one row per (project, founder-local day, kind) reported on, inserted in the transaction that
 *   queues the report's mail, so a report is sent once across instances and restarts.
 */
export const morningAfterReport: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("mail_outbox").addColumn("attachments", t.json).execute();
    await db.schema
      .alterTable("project_alert_settings")
      .addColumn("morning_report", t.boolean, (c) => c.notNull().defaultTo(t.true))
      .execute();
    await db.schema
      .createTable("morning_reports")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("sent_at", t.timestamp, (c) => c.notNull())
      .addColumn("messages", "integer", (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint("morning_reports_pk", ["project_id", "day", "kind"])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("morning_reports").execute();
    await db.schema.alterTable("project_alert_settings").dropColumn("morning_report").execute();
    await db.schema.alterTable("mail_outbox").dropColumn("attachments").execute();
  },
};
