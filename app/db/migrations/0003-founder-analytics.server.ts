import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Exact aggregates for the founder's analytics, kept by the writes that change them: contact and signal
 * counters beside the scan counters, and scans per QR code per hour for the scans-over-time chart.
 */
export const founderAnalytics: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    for (const column of ["intros", "subscribers", "signals"]) {
      await db.schema
        .alterTable("project_stats")
        .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    }
    // Every project has its stats row from now on; existing data is counted once here.
    await sql`insert into project_stats (project_id, total_scans, unique_scans)
      select id, 0, 0 from projects where id not in (select project_id from project_stats)`.execute(db);
    await sql`update project_stats set
      intros = (select count(*) from contacts c where c.project_id = project_stats.project_id and c.intent = 'Intro'),
      subscribers = (select count(*) from contacts c where c.project_id = project_stats.project_id and c.subscribed = ${t.true}),
      signals = (select count(*) from signals s where s.project_id = project_stats.project_id)`.execute(db);

    // qr_code_id is '' for scans without a code, so it can be part of the key on both databases.
    await db.schema
      .createTable("scan_hours")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("qr_code_id", "text", (c) => c.notNull())
      .addColumn("hour", t.timestamp, (c) => c.notNull())
      .addColumn("scans", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("scan_hours_pk", ["project_id", "qr_code_id", "hour"])
      .execute();
    await sql`insert into scan_hours (project_id, qr_code_id, hour, scans)
      select project_id, coalesce(qr_code_id, ''), ${hourOf(t.dialect)}, count(*) from scans
      group by project_id, coalesce(qr_code_id, ''), ${hourOf(t.dialect)}`.execute(db);
  },
};

function hourOf(dialect: "sqlite" | "postgres") {
  return dialect === "postgres"
    ? sql`date_trunc('hour', scanned_at)`
    : sql`strftime('%Y-%m-%dT%H:00:00.000Z', scanned_at)`;
}
