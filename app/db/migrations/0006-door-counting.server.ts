import type { Kysely, Migration } from "kysely";

/**
 * Scans counted by the server when it serves the pitch page (decision 15): a viewer remembers the daily
 * address hash it was first seen with, so a browser that keeps no cookie is not a new viewer on every
 * reload; and each project keeps how many page loads were excluded, and why, as proof the filter works.
 */
export const doorCounting: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("project_viewers").addColumn("address_hash", "text").execute();
    await db.schema.createIndex("project_viewers_address_idx").on("project_viewers").columns(["project_id", "address_hash"]).execute();
    for (const column of ["excluded_bots", "excluded_previews", "excluded_prefetches", "excluded_owner_views"]) {
      await db.schema
        .alterTable("project_stats")
        .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    }
  },
};
