import { PostgresAdapter, type Kysely } from "kysely";

export type Dialect = "sqlite" | "postgres";

/** Which database a Kysely instance talks to; migrations and a few queries need to know. */
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}
