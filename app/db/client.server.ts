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

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

export function openDatabase(target: DatabaseTarget): AppDatabase {
  if (target.dialect === "sqlite") {
    fs.mkdirSync(path.dirname(target.file), { recursive: true });
    const connection = new SQLite(target.file);
    connection.pragma("journal_mode = WAL");
    connection.pragma("synchronous = NORMAL");
    connection.pragma("foreign_keys = ON");
    connection.pragma("busy_timeout = 5000");
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: connection }),
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
