// The Friday digest at volume: one project with 5,000 subscribers and two updates, on SQLite and then PostgreSQL.
// The app starts after the Friday slot has passed, so its scheduler claims the slot at boot, queues one digest per
// subscriber in one transaction, and the mail worker delivers them to a local SMTP server (smtp-server, which counts
// them). Figures: time to queue the digest, delivery rate, and that each subscriber got exactly one.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { freePort, startServer } from "./support.js";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 5_000);
const BATCH = 500;

async function startSmtpSink() {
  const port = await freePort();
  const recipients = new Map();
  let first = 0;
  let last = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        for (const { address } of session.envelope.rcptTo) recipients.set(address, (recipients.get(address) ?? 0) + 1);
        last = performance.now();
        first ||= last;
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    recipients,
    timings: () => ({ first, last }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Rows for the project, its two updates (posted before last Friday's slot) and its subscribers. */
function fixture() {
  const projectId = crypto.randomUUID();
  const now = Date.now();
  const lastWeek = new Date(now - 9 * 86_400_000).toISOString();
  return {
    projectId,
    project: [projectId, "demo-owner", "Digest Bench", `digest-bench-${projectId.slice(0, 8)}`, "A project with many followers", "[]", "[]", "[]", "published", lastWeek, lastWeek],
    updates: [
      [crypto.randomUUID(), projectId, "Shipped remote temperature alerts", new Date(now - 9 * 86_400_000).toISOString()],
      [crypto.randomUUID(), projectId, "Two more district clinics signed", new Date(now - 8 * 86_400_000).toISOString()],
    ],
    contacts: Array.from({ length: SUBSCRIBERS }, (_, i) => [crypto.randomUUID(), projectId, `Follower ${i}`, `follower-${i}@bench.example`, "Subscriber", lastWeek]),
  };
}

const PROJECT_COLUMNS = "id, owner_id, title, slug, one_liner, metrics, problem_points, solution_points, status, created_at, updated_at";

function seedSqlite(file, rows) {
  const db = new SQLite(file);
  db.transaction(() => {
    db.prepare(`insert into projects (${PROJECT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...rows.project);
    const update = db.prepare("insert into project_updates (id, project_id, body, created_at) values (?, ?, ?, ?)");
    for (const row of rows.updates) update.run(...row);
    const contact = db.prepare("insert into contacts (id, project_id, name, email, intent, subscribed, role_tags, created_at) values (?, ?, ?, ?, ?, 1, '[]', ?)");
    for (const row of rows.contacts) contact.run(...row);
    db.prepare("delete from digest_runs").run();
  })();
  db.close();
}

async function seedPostgres(url, rows) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    await client.query(`insert into projects (${PROJECT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, rows.project);
    for (const row of rows.updates) await client.query("insert into project_updates (id, project_id, body, created_at) values ($1, $2, $3, $4)", row);
    for (let start = 0; start < rows.contacts.length; start += BATCH) {
      const batch = rows.contacts.slice(start, start + BATCH);
      const values = batch.map((_, i) => `($${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}, true, '[]', $${i * 6 + 6})`).join(", ");
      await client.query(`insert into contacts (id, project_id, name, email, intent, subscribed, role_tags, created_at) values ${values}`, batch.flat());
    }
    await client.query("delete from digest_runs");
    await client.query("commit");
  } finally {
    await client.end();
  }
}

async function runOn(dialect) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-bench-mail-"));
  let database = null;
  const env = { DATA_DIR: dataDir };
  if (dialect === "postgres") {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    const name = `pitchqr_bench_mail_${process.pid}_${Date.now()}`;
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    database = { name, url: url.toString() };
    env.DATABASE_URL = database.url;
  }
  const smtp = await startSmtpSink();
  try {
    // First start: migrate and seed the demo; then add the project behind the app's back and forget past runs.
    await (await startServer(env)).stop();
    const rows = fixture();
    if (dialect === "sqlite") seedSqlite(path.join(dataDir, "app.sqlite"), rows);
    else await seedPostgres(database.url, rows);

    const started = performance.now();
    const server = await startServer({ ...env, SMTP_URL: smtp.url });
    try {
      const deadline = Date.now() + 300_000;
      while (smtp.recipients.size < SUBSCRIBERS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const { first, last } = smtp.timings();
      const duplicates = [...smtp.recipients.values()].filter((count) => count > 1).length;
      return {
        [`${dialect}: server ready (boot)`]: `${Math.round(server.readyMs)} ms`,
        [`${dialect}: start to first digest delivered (${SUBSCRIBERS.toLocaleString("en-US")} subscribers queued in one transaction)`]: `${Math.round(first - started)} ms`,
        [`${dialect}: delivery rate over SMTP`]: `${Math.round((SUBSCRIBERS - 1) / ((last - first) / 1000))} messages/s`,
        [`${dialect}: subscribers reached, duplicates`]: `${smtp.recipients.size.toLocaleString("en-US")}, ${duplicates}`,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (database) {
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${database.name} with (force)`);
      await admin.end();
    }
  }
}

export default async function run() {
  return { ...(await runOn("sqlite")), ...(await runOn("postgres")) };
}
