import { POSTGRES_ADMIN_URL, withAdminClient } from "./postgres";
import { redactPassword } from "./test-postgres.js";

/** A missing PostgreSQL fails the run: the suite is only meaningful on both databases. */
export default async function checkPostgres() {
  try {
    await withAdminClient((client) => client.query("select 1"));
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${redactPassword(POSTGRES_ADMIN_URL)} (${(error as Error).message}). ` +
        "Start it, point TEST_POSTGRES_URL at a server where the tests may create databases, " +
        "or run `npm test`, which starts a disposable PostgreSQL when none answers.",
    );
  }
}
