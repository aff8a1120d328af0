import { POSTGRES_ADMIN_URL, withAdminClient } from "./postgres";

/** A missing PostgreSQL fails the run: the suite is only meaningful on both databases. */
export default async function checkPostgres() {
  try {
    await withAdminClient((client) => client.query("select 1"));
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (${(error as Error).message}). ` +
        "Start it, or point TEST_POSTGRES_URL at a server where the tests may create databases.",
    );
  }
}
