import type { Kysely } from "kysely";
import type { Database, RecognitionType } from "~/db/schema";

/**
 * What the public sees of a wall entry: never an e-mail, a LinkedIn URL, a note or a hidden supporter.
 * `seq` is the entry's place on its project's wall in commit order: the live stream's cursor.
 */
export type PublicWallEntry = {
  id: number;
  seq: number;
  type: RecognitionType;
  displayName: string;
  roleTags: string[];
  message: string | null;
  createdAt: string;
};

export const WALL_PAGE_SIZE = 50;

export type NewWallEntry = {
  projectId: string;
  type: RecognitionType;
  displayName: string;
  roleTags: string[];
  message: string | null;
  createdAt: string;
};

/**
 * Puts an entry on a project's wall. Call it inside the transaction that writes the entry's cause, as late
 * as that transaction allows: the counter update locks the project's row until commit (decision
 * "wall-sequence"), so entries commit in the order of their numbers and a stream reading `seq > cursor`
 * never skips one that commits late. On SQLite writers are serialised anyway.
 */
export async function addWallEntry(trx: Kysely<Database>, entry: NewWallEntry): Promise<{ id: number; seq: number }> {
  const counter = await trx
    .updateTable("projects")
    .set((eb) => ({ wall_seq: eb("wall_seq", "+", 1) }))
    .where("id", "=", entry.projectId)
    .returning("wall_seq")
    .executeTakeFirstOrThrow();
  const seq = Number(counter.wall_seq);
  const row = await trx
    .insertInto("recognition_entries")
    .values({
      project_id: entry.projectId,
      type: entry.type,
      display_name: entry.displayName,
      role_tags: entry.roleTags,
      message: entry.message,
      is_public: true,
      wall_seq: seq,
      created_at: entry.createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), seq };
}

function visibleEntries(db: Kysely<Database>, projectId: string) {
  return db
    .selectFrom("recognition_entries")
    .select(["id", "wall_seq", "type", "display_name", "role_tags", "message", "created_at"])
    .where("project_id", "=", projectId)
    .where("is_public", "=", true)
    .where("hidden", "=", false);
}

function toPublic(row: {
  id: number;
  wall_seq: number;
  type: RecognitionType;
  display_name: string;
  role_tags: string[];
  message: string | null;
  created_at: string;
}): PublicWallEntry {
  return {
    id: Number(row.id),
    seq: Number(row.wall_seq),
    type: row.type,
    displayName: row.display_name,
    roleTags: row.role_tags,
    message: row.message,
    createdAt: row.created_at,
  };
}

/** The wall, newest first, and how many supporters chose not to show their name. */
export async function readWall(db: Kysely<Database>, projectId: string) {
  const [rows, hidden] = await Promise.all([
    visibleEntries(db, projectId).orderBy("wall_seq", "desc").limit(WALL_PAGE_SIZE).execute(),
    countHiddenSupporters(db, projectId),
  ]);
  return { entries: rows.map(toPublic), hiddenSupporters: hidden };
}

/**
 * Up to `limit` visible entries numbered after `afterSeq`, oldest first, for a live stream resuming where it
 * left off. An entry hidden by the founder keeps its number, so skipping it moves no cursor backwards.
 */
export async function readWallAfter(db: Kysely<Database>, projectId: string, afterSeq: number, limit = WALL_PAGE_SIZE): Promise<PublicWallEntry[]> {
  const rows = await visibleEntries(db, projectId).where("wall_seq", ">", afterSeq).orderBy("wall_seq", "asc").limit(limit).execute();
  return rows.map(toPublic);
}

/** The number of the wall's latest committed entry (every lower number is committed too). */
export async function latestWallSeq(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db.selectFrom("projects").select("wall_seq").where("id", "=", projectId).executeTakeFirst();
  return Number(row?.wall_seq ?? 0);
}

export async function countHiddenSupporters(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom("signals")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("project_id", "=", projectId)
    .where("is_public", "=", false)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
