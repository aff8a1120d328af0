import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { DEFAULT_TEST_POSTGRES_URL } from "./test-postgres.js";

/** The PostgreSQL server the tests create their own databases on (never a database they did not create). */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL;

export function postgresUrlFor(database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The server's statistics views the suites watch (the columns they read), for the query builder. */
export type ServerViews = {
  pg_stat_activity: { pid: number; datname: string | null; application_name: string };
  /** `deadlocks` is a bigint, which pg reads as text. */
  pg_stat_database: { datname: string | null; deadlocks: string };
};

/** Runs `work` with a typed connection to the server's maintenance database, to read its statistics views. */
export async function withAdminDb<T>(work: (db: Kysely<ServerViews>) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5_000, max: 1 });
  const db = new Kysely<ServerViews>({ dialect: new PostgresDialect({ pool }) });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

export async function createPostgresDatabase(prefix = "pitchqr_test"): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withAdminClient((client) => client.query(`create database "${name}"`));
  return {
    name,
    url: postgresUrlFor(name),
    drop: () => withAdminClient((client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}
