import type { Kysely } from "kysely";
import type { Database, RecognitionType } from "~/db/schema";

/** What the public sees of a wall entry: never an e-mail, a LinkedIn URL, a note or a hidden supporter. */
export type PublicWallEntry = {
  id: number;
  type: RecognitionType;
  displayName: string;
  roleTags: string[];
  message: string | null;
  createdAt: string;
};

export const WALL_PAGE_SIZE = 50;

function visibleEntries(db: Kysely<Database>, projectId: string) {
  return db
    .selectFrom("recognition_entries")
    .select(["id", "type", "display_name", "role_tags", "message", "created_at"])
    .where("project_id", "=", projectId)
    .where("is_public", "=", true)
    .where("hidden", "=", false);
}

function toPublic(row: { id: number; type: RecognitionType; display_name: string; role_tags: string[]; message: string | null; created_at: string }): PublicWallEntry {
  return {
    id: Number(row.id),
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
    visibleEntries(db, projectId).orderBy("id", "desc").limit(WALL_PAGE_SIZE).execute(),
    countHiddenSupporters(db, projectId),
  ]);
  return { entries: rows.map(toPublic), hiddenSupporters: hidden };
}

/** Entries written after `afterId` (oldest first), for a live stream resuming where it left off. */
export async function readWallAfter(db: Kysely<Database>, projectId: string, afterId: number): Promise<PublicWallEntry[]> {
  const rows = await visibleEntries(db, projectId).where("id", ">", afterId).orderBy("id", "asc").limit(WALL_PAGE_SIZE).execute();
  return rows.map(toPublic);
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
