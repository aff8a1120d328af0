import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 63: every slug a project has had keeps opening it. `project_slugs` holds each
 * project's current slug and every former one, one row per slug: the slug is the primary key, so a slug (current
 * or former) belongs to one project for good and another project's insert of it is refused by the key itself.
 * Filled with every project's current slug; slugs renamed away before this migration are not known.
 */
export const slugHistory: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("project_slugs")
      .addColumn("slug", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("project_slugs_project_idx").on("project_slugs").column("project_id").execute();
    await sql`insert into project_slugs (slug, project_id, created_at) select slug, id, created_at from projects`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("project_slugs").execute();
  },
};
