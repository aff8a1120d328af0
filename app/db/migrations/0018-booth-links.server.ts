import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Booth links (decision 35): a staff device opens one project's booth screen without the
 * founder's password. Only the token's sha256 is stored; a link ends at `expires_at` or when `revoked_at` is set.
 */
export const boothLinks: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("booth_links")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addColumn("expires_at", t.timestamp, (c) => c.notNull())
      .addColumn("revoked_at", t.timestamp)
      .execute();
    await db.schema.createIndex("booth_links_project_expires_idx").on("booth_links").columns(["project_id", "expires_at"]).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("booth_links").execute();
  },
};
