import fs from "node:fs";
import SQLite from "better-sqlite3";
import type { Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * Start-up check for an instance on PostgreSQL: a database with neither users nor projects while the data folder
 * still holds a SQLite database with projects means the operator switched databases without moving the data.
 */
export async function findSqliteDataLeftBehind(target: Kysely<Database>, sqliteFile: string): Promise<{ file: string; projects: number } | null> {
  if (!fs.existsSync(sqliteFile)) return null;
  const [user, project] = await Promise.all([
    target.selectFrom("users").select("id").limit(1).executeTakeFirst(),
    target.selectFrom("projects").select("id").limit(1).executeTakeFirst(),
  ]);
  if (user || project) return null;
  let projects: number;
  try {
    const connection = new SQLite(sqliteFile, { readonly: true, fileMustExist: true });
    try {
      projects = (connection.prepare("select count(*) as n from projects").get() as { n: number }).n;
    } finally {
      connection.close();
    }
  } catch {
    // Not an app database (or unreadable): nothing to say about it.
    return null;
  }
  return projects > 0 ? { file: sqliteFile, projects } : null;
}
