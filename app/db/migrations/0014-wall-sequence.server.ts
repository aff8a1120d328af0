import { sql, type Kysely, type Migration } from "kysely";

/**
 * The Recognition Wall streams in commit order (decision "wall-sequence"): each entry gets a
 * per-project number, `recognition_entries.wall_seq`, taken from the counter `projects.wall_seq` inside the
 * writing transaction. Incrementing the counter locks the project's row until commit, so numbers commit in
 * order and a stream that has sent N never meets a later commit below N. Existing entries are numbered per
 * project in id order (what the stream ordered them by before), and each counter starts at its wall's count.
 * `wall_seq` defaults to 0 only because SQLite cannot add a NOT NULL column without one; the unique index
 * refuses a second unnumbered entry, so every writer goes through `addWallEntry`.
 */
export const wallSequence: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("projects")
      .addColumn("wall_seq", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable("recognition_entries")
      .addColumn("wall_seq", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await numberExistingWallEntries(db);
    await db.schema
      .createIndex("recognition_entries_project_wall_seq")
      .unique()
      .on("recognition_entries")
      .columns(["project_id", "wall_seq"])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("recognition_entries_project_wall_seq").execute();
    await db.schema.alterTable("recognition_entries").dropColumn("wall_seq").execute();
    await db.schema.alterTable("projects").dropColumn("wall_seq").execute();
  },
};

/** Numbers each project's entries 1, 2, 3… in id order and starts each project's counter at its last number. */
export async function numberExistingWallEntries(db: Kysely<any>): Promise<void> {
  await sql`
    update recognition_entries set wall_seq = (
      select count(*) from recognition_entries earlier
      where earlier.project_id = recognition_entries.project_id and earlier.id <= recognition_entries.id
    )`.execute(db);
  await sql`
    update projects set wall_seq = (
      select coalesce(max(entries.wall_seq), 0) from recognition_entries entries where entries.project_id = projects.id
    )`.execute(db);
}
