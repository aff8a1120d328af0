import { PostgresAdapter, sql, type Kysely, type RawBuilder } from "kysely";

export type Dialect = "sqlite" | "postgres";

/** Which database a Kysely instance talks to; migrations and a few queries need to know. */
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/**
 * The UTC quarter hour a timestamp column falls in, as 'YYYY-MM-DDTHH:MM' (minutes 00, 15, 30 or 45), spelled for
 * each database: every time zone's offset is a whole number of quarter hours, so these split exactly at any
 * zone's midnight or hour (decision 53).
 */
export function utcQuarterHourOf(dialect: Dialect, column: string): RawBuilder<string> {
  return dialect === "postgres"
    ? sql<string>`to_char(date_trunc('hour', ${sql.ref(column)} at time zone 'UTC') + floor(extract(minute from ${sql.ref(column)} at time zone 'UTC') / 15) * interval '15 minutes', 'YYYY-MM-DD"T"HH24:MI')`
    : sql<string>`substr(${sql.ref(column)}, 1, 14) || printf('%02d', (cast(substr(${sql.ref(column)}, 15, 2) as integer) / 15) * 15)`;
}
