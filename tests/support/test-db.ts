// Typed access to the database a test's app server uses, for the browser and server suites' assertions and set-up:
// Kysely over the app's schema types, on the server's SQLite file or its PostgreSQL database, with the app's own
// value normalisation (booleans, JSON columns and timestamps read as the domain code reads them).
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql, type SelectQueryBuilder } from "kysely";
import pg from "pg";
import { NormalizeValuesPlugin } from "~/db/normalize.server";
import type { Database } from "~/db/schema";
import type { ReadRows } from "./counter-drift";

export type TestDb = Kysely<Database>;

/** Where a test server keeps its data: its PostgreSQL database when it has one, else the SQLite file in its data folder. */
export type DatabaseOf = { dataDir: string; databaseUrl?: string };

/**
 * A connection to the server's database. On SQLite it is read-only unless `writable` (set-up only), with a busy timeout
 * so a read waits out the server's writes. Close it with `destroy()`.
 */
export function openTestDb(target: DatabaseOf, options: { writable?: boolean } = {}): TestDb {
  if (target.databaseUrl) {
    const pool = new pg.Pool({ connectionString: target.databaseUrl, max: 2 });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new NormalizeValuesPlugin("postgres")] });
  }
  const connection = new SQLite(path.join(target.dataDir, "app.sqlite"), { readonly: !options.writable, fileMustExist: true });
  connection.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }), plugins: [new NormalizeValuesPlugin("sqlite")] });
}

/** Runs `work` with a short-lived read-write connection to the server's database (set-up only). */
export async function withWritableDb<T>(target: DatabaseOf, work: (db: TestDb) => Promise<T>): Promise<T> {
  const db = openTestDb(target, { writable: true });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/** How many rows `query` selects, as a number on both databases (PostgreSQL counts in bigint, which pg reads as text). */
export async function countRows<TB extends keyof Database>(query: SelectQueryBuilder<Database, TB, object>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The id of the account signed up with `email`. */
export async function userIdByEmail(db: TestDb, email: string): Promise<string> {
  const { id } = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow(() => new Error(`no account for ${email}`));
  return id;
}

/** The id of the project at `slug`. */
export async function projectIdBySlug(db: TestDb, slug: string): Promise<string> {
  const { id } = await db.selectFrom("projects").select("id").where("slug", "=", slug).executeTakeFirstOrThrow(() => new Error(`no project at ${slug}`));
  return id;
}

/** The text of the newest mail of `kind` queued for `recipient`, or undefined when none was. */
export async function newestMailText(db: TestDb, kind: string, recipient: string): Promise<string | undefined> {
  const mail = await db
    .selectFrom("mail_outbox")
    .select("text_body")
    .where("kind", "=", kind)
    .where("recipient", "=", recipient)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return mail?.text_body;
}

/**
 * The counter-drift readings (SQL text shared by the suites that compare counters with their rows) run on the typed
 * connection, so a suite needs no second, raw handle for them. Their columns (ids, counts, counters) are read as is.
 */
export function driftReader(db: TestDb): ReadRows {
  return async (text) => (await sql.raw<Record<string, unknown>>(text).execute(db)).rows;
}

/**
 * Every column of the app's tables with its declared type (SQLite's as written in the schema, PostgreSQL's type
 * name: text, varchar, jsonb…), as the database describes them; Kysely's migration tables too when asked.
 */
export async function tableColumns(db: TestDb, options: { withInternalKyselyTables?: boolean } = {}): Promise<{ table: string; column: string; dataType: string }[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: options.withInternalKyselyTables ?? false });
  return tables
    .filter((table) => table.schema === undefined || table.schema === "public")
    .flatMap((table) => table.columns.map((column) => ({ table: table.name, column: column.name, dataType: column.dataType })));
}
