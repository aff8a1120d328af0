import type { Kysely, Migration } from "kysely";

/**
 * Visitors who saved a pitch to their phone's list (decision 36): one row per project and
 * viewer the page door counted (its viewer fingerprint, a hash), with the source the save is attributed to, so a
 * repeated save counts once; `source_stats.saves` is the maintained count per source and across sources (`*`).
 */
export const pitchSaves: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("pitch_saves")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("viewer_fingerprint", "text", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("pitch_saves_pk", ["project_id", "viewer_fingerprint"])
      .execute();
    await db.schema
      .alterTable("source_stats")
      .addColumn("saves", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("source_stats").dropColumn("saves").execute();
    await db.schema.dropTable("pitch_saves").execute();
  },
};
