import pg from "pg";

/**
 * How long PostgreSQL lets one statement run (lock waits included) before it cancels it. The app's statements take
 * milliseconds, but a burst of signals on one project queues on its counters' row: 5 s was reached by twelve writers
 * on a loaded two-core machine (tests/concurrency/live-wall-instances.test.ts).
 */
export const STATEMENT_TIMEOUT_MS = 10_000;
/**
 * How long the app waits for any answer to a query. A reachable server cancels a slow statement first (and says
 * so); past this the connection is taken to be dead, as one is when its packets are silently dropped.
 */
export const QUERY_READ_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 1_000;
/**
 * How long getting a connection may take: opening one, or waiting for one of the pool's to be free. A burst of
 * visitors after a pitch queues here, so it is as long as a statement may run.
 */
export const CONNECT_TIMEOUT_MS = STATEMENT_TIMEOUT_MS;
/**
 * An idle connection is probed by TCP keep-alive after this long, so a connection a firewall or a failover dropped
 * is found out by the kernel rather than by the next query (the probes' spacing is the system's).
 */
const KEEPALIVE_INITIAL_DELAY_MS = 10_000;
/** How long /healthz waits for the database's answer: a monitor's probe should hear back within 2 s, whatever happens. */
export const PING_TIMEOUT_MS = 1_500;
const MAX_CONNECTIONS = 10;

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/**
 * "serving": the pool the app answers requests with, where no query may wait longer than QUERY_READ_TIMEOUT_MS.
 * "unbounded": for work that may rightly run long and has no visitor waiting (the SQLite-to-PostgreSQL copy, the
 * migrations at start-up).
 */
export type PoolUse = "serving" | "unbounded";

/**
 * An idle PostgreSQL connection can be closed by the server (restart, failover, a dropped database); the pool
 * replaces it and the next query reports any real outage. Without a listener such an error would end the process.
 */
export type IdleConnectionErrorHandler = (error: Error) => void;

export function createPostgresPool(url: string, use: PoolUse, onIdleConnectionError: IdleConnectionErrorHandler): pg.Pool {
  const serving = use === "serving";
  const pool = new pg.Pool({
    connectionString: url,
    max: MAX_CONNECTIONS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
    ...(serving ? { statement_timeout: STATEMENT_TIMEOUT_MS, query_timeout: QUERY_READ_TIMEOUT_MS, connectionTimeoutMillis: CONNECT_TIMEOUT_MS } : {}),
    types: {
      // Counts and sums arrive as text by default; every such value here fits a JS number.
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === PG_INT8 || oid === PG_NUMERIC ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on("error", onIdleConnectionError);
  pool.on("connect", (client) => {
    // A connection lost while checked out fails its query (and so the caller's work), but pg also emits "error" on
    // the client, where the pool listens only while it is idle; unheard, that event would end the process.
    client.on("error", ignoreErrorAlreadyGivenToTheQuery);
    if (serving) closeWhenUnanswered(client);
  });
  return pool;
}

function ignoreErrorAlreadyGivenToTheQuery(): void {}

const READ_TIMEOUT_MESSAGE = "Query read timeout";

/**
 * pg fails a query that got no answer within `query_timeout`, but keeps the connection, with that query still
 * waiting on it: every later query on it would queue behind the one that never ends. Such a connection is closed
 * instead, and the pool opens a fresh one when it is next needed.
 */
function closeWhenUnanswered(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const closeIfUnanswered = (error: unknown) => {
    if (error instanceof Error && error.message === READ_TIMEOUT_MESSAGE) client.connection.stream.destroy();
  };
  client.query = ((...args: unknown[]) => {
    const callback = args.at(-1);
    if (typeof callback === "function") {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        closeIfUnanswered(error);
        (callback as (error: unknown, result: unknown) => void)(error, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.catch(closeIfUnanswered);
    return result;
  }) as typeof client.query;
}

export class DatabaseUnanswered extends Error {
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = "DatabaseUnanswered";
  }
}

/** `select 1`, failed with DatabaseUnanswered past PING_TIMEOUT_MS: waiting for a free connection included. */
export async function ping(pool: pg.Pool): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DatabaseUnanswered(PING_TIMEOUT_MS)), PING_TIMEOUT_MS);
  });
  try {
    // pg reads a query's own `query_timeout`; its types do not list it.
    await Promise.race([pool.query({ text: "select 1", query_timeout: PING_TIMEOUT_MS } as pg.QueryConfig), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
