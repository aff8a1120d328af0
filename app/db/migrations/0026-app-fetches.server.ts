import type { Kysely, Migration } from "kysely";

/**
 * Page loads fetched by an app rather than shown in a browser (decision 52: a QR scanner app's Android or iOS
 * HTTP client checking the link, a request without the headers every browser sends), tallied apart as proof the
 * rule works.
 */
export const appFetches: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("project_stats")
      .addColumn("excluded_app_fetches", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("project_stats").dropColumn("excluded_app_fetches").execute();
  },
};
