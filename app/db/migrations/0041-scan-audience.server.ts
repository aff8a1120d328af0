import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 67: how and when people scanned, as counters derived at the door. One row per project,
 * code ('' for the plain link, as in `scan_hours`), UTC hour and coarse labels (device family, browser, the app whose
 * built-in browser it was, '' for none). Never a user agent or an address: the founder's hour of day is worked out
 * when read, in whatever zone the founder has then.
 */
export const scanAudience: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("scan_audience_hours")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("qr_code_id", "text", (c) => c.notNull())
      .addColumn("hour", t.timestamp, (c) => c.notNull())
      .addColumn("device", "text", (c) => c.notNull())
      .addColumn("browser", "text", (c) => c.notNull())
      .addColumn("in_app", "text", (c) => c.notNull())
      .addColumn("scans", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("scan_audience_hours_pk", ["project_id", "qr_code_id", "hour", "device", "browser", "in_app"])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("scan_audience_hours").execute();
  },
};
