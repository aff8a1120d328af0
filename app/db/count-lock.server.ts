import { sql, type Kysely } from "kysely";
import { dialectOf } from "./dialect.server";

/**
 * Holds, until the caller's transaction ends, a lock on each of `keys` (names of what a limit counts, such as one
 * account's replies), so a limit counted from rows sees every row committed before it and no other writer under the
 * same key adds one until it commits: two requests at once cannot both take the last place. PostgreSQL: transaction
 * advisory locks, taken in sorted order (so two transactions never wait on each other in a circle) and before any
 * row lock of the transaction. SQLite: nothing to take; it has a single writer, and this process runs one transaction
 * at a time on its one connection.
 */
export async function holdCountLocks(trx: Kysely<any>, keys: string[]): Promise<void> {
  if (dialectOf(trx) !== "postgres") return;
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }
}
