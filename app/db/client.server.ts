import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { DatabaseTarget } from "~/config.server";
import type { Dialect } from "./dialect.server";
import { NormalizeValuesPlugin } from "./normalize.server";
import type { Database } from "./schema";

export type AppDatabase = {
  /** Query builder with values normalised across drivers; what domain code uses. */
  db: Kysely<Database>;
  dialect: Dialect;
  /** Checks the database answers; used by /healthz. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/**
 * Kysely prepares every query afresh; on a hot path (the page cache's version check, scan batches) that is a
 * good share of the time. Statements are reused per SQL text, unless one is still busy with a streamed read.
 */
function withStatementCache(connection: SQLite.Database): SQLite.Database {
  const statements = new Map<string, SQLite.Statement>();
  const prepare = (source: string) => {
    const cached = statements.get(source);
    if (cached && !cached.busy) return cached;
    const statement = connection.prepare(source);
    if (!cached) {
      if (statements.size >= 500) statements.delete(statements.keys().next().value!);
      statements.set(source, statement);
    }
    return statement;
  };
  return new Proxy(connection, {
    get(target, property, receiver) {
      if (property === "prepare") return prepare;
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/**
 * An idle PostgreSQL connection can be closed by the server (restart, failover, a dropped database); the pool
 * replaces it and the next query reports any real outage. Without a listener such an error would end the process.
 */
export type IdleConnectionErrorHandler = (error: Error) => void;

export function openDatabase(target: DatabaseTarget, onIdleConnectionError: IdleConnectionErrorHandler = () => {}): AppDatabase {
  if (target.dialect === "sqlite") {
    fs.mkdirSync(path.dirname(target.file), { recursive: true });
    const connection = new SQLite(target.file);
    connection.pragma("journal_mode = WAL");
    connection.pragma("synchronous = NORMAL");
    connection.pragma("foreign_keys = ON");
    connection.pragma("busy_timeout = 5000");
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(connection) }),
      plugins: [new NormalizeValuesPlugin("sqlite")],
    });
    return {
      db,
      dialect: "sqlite",
      async ping() {
        connection.prepare("select 1").get();
      },
      close: () => db.destroy(),
    };
  }

  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    types: {
      // Counts and sums arrive as text by default; every such value here fits a JS number.
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === PG_INT8 || oid === PG_NUMERIC ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on("error", onIdleConnectionError);
  // A connection lost while checked out fails its query (and so the caller's work), but pg also emits "error" on
  // the client, where the pool listens only while it is idle; unheard, that event would end the process.
  pool.on("connect", (client) => client.on("error", ignoreErrorAlreadyGivenToTheQuery));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new NormalizeValuesPlugin("postgres")],
  });
  return {
    db,
    dialect: "postgres",
    async ping() {
      await pool.query("select 1");
    },
    close: () => db.destroy(),
  };
}

function ignoreErrorAlreadyGivenToTheQuery(): void {}
