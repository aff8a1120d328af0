import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import type { DatabaseTarget } from "~/config.server";
import type { Dialect } from "./dialect.server";
import { NormalizeValuesPlugin } from "./normalize.server";
import { createPostgresPool, ping, type IdleConnectionErrorHandler, type PoolUse } from "./postgres-pool.server";
import type { Database } from "./schema";

export type AppDatabase = {
  /** Query builder with values normalised across drivers; what domain code uses. */
  db: Kysely<Database>;
  dialect: Dialect;
  /** Checks the database answers (on PostgreSQL, within PING_TIMEOUT_MS); used by /healthz. */
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

export type OpenDatabaseOptions = {
  /** On PostgreSQL, whether queries are bounded in time (the default) or may run as long as they take. */
  use?: PoolUse;
  onIdleConnectionError?: IdleConnectionErrorHandler;
};

export function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions = {}): AppDatabase {
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

  const pool = createPostgresPool(target.url, options.use ?? "serving", options.onIdleConnectionError ?? (() => {}));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new NormalizeValuesPlugin("postgres")],
  });
  return {
    db,
    dialect: "postgres",
    ping: () => ping(pool),
    close: () => db.destroy(),
  };
}
