import { PostgresAdapter, sql, type Kysely, type RawBuilder } from "kysely";

export type Dialect = "sqlite" | "postgres";

/** Which database a Kysely instance talks to; migrations and a few queries need to know. */
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/** The UTC calendar day ('YYYY-MM-DD') of a timestamp column, spelled for each database. */
export function utcDayOf(dialect: Dialect, column: string): RawBuilder<string> {
  return dialect === "postgres"
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${sql.ref(column)}, 1, 10)`;
}
