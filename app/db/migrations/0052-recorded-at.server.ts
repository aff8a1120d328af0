import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * When an intro or a signal was written, beside when the visitor acted (`created_at`): a form held for review and
 * accepted later, or kept on a phone offline, acted minutes or days before it was written. The booth ticker reads
 * what was written since its last read, so an accepted form shows there too (decision 91). Rows before this
 * migration were written when they were made.
 */
export const recordedAt: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    for (const table of ["intros", "signals"]) {
      await db.schema.alterTable(table).addColumn("recorded_at", t.timestamp).execute();
      await sql`update ${sql.table(table)} set recorded_at = created_at`.execute(db);
      await db.schema.createIndex(`${table}_project_recorded_idx`).on(table).columns(["project_id", "recorded_at"]).execute();
    }
  },
  async down(db: Kysely<any>) {
    for (const table of ["intros", "signals"]) {
      await db.schema.dropIndex(`${table}_project_recorded_idx`).execute();
      await db.schema.alterTable(table).dropColumn("recorded_at").execute();
    }
  },
};
