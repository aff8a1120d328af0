import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Project updates ("what shipped") and the weekly digest runs. A digest run is claimed by inserting its slot
 * (the Friday it belongs to), so only one instance sends it; an update is marked with the run that mailed it.
 */
export const projectUpdates: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("project_updates")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .addColumn("digest_slot", "text")
      .execute();
    await db.schema.createIndex("project_updates_project_idx").on("project_updates").columns(["project_id", "created_at"]).execute();
    await db.schema.createIndex("project_updates_undigested_idx").on("project_updates").columns(["digest_slot", "created_at"]).execute();

    await db.schema
      .createTable("digest_runs")
      .addColumn("slot", "text", (c) => c.primaryKey())
      .addColumn("slot_at", t.timestamp, (c) => c.notNull())
      .addColumn("ran_at", t.timestamp, (c) => c.notNull())
      .addColumn("projects", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("messages", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
