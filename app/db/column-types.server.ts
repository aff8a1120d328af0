import { sql, type ColumnDataType, type Expression, type Kysely } from "kysely";
import { dialectOf, type Dialect } from "./dialect.server";

/** The few column types that are spelled differently on the two databases, for migrations. */
export function columnTypes(db: Kysely<any>) {
  const dialect: Dialect = dialectOf(db);
  const postgres = dialect === "postgres";
  return {
    dialect,
    boolean: (postgres ? "boolean" : "integer") as ColumnDataType,
    json: (postgres ? "jsonb" : "text") as ColumnDataType,
    timestamp: (postgres ? "timestamptz" : "text") as ColumnDataType,
    /** The current time in the same shape as `new Date().toISOString()` on SQLite. */
    now: (postgres ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`) as Expression<unknown>,
    true: (postgres ? sql`true` : sql`1`) as Expression<unknown>,
    false: (postgres ? sql`false` : sql`0`) as Expression<unknown>,
    emptyList: (postgres ? sql`'[]'::jsonb` : sql`'[]'`) as Expression<unknown>,
  };
}
