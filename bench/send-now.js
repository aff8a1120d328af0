// 'Send now' to a large audience: one published project with 60,000 followers on SQLite and then PostgreSQL, the
// app started as `npm start` does, delivering to a local SMTP server (so the mail worker runs as it would in production). An update is sent with the edit screen's Send now form; meanwhile the app's event
// loop delay is measured inside its process (perf_hooks, through bench/event-loop-probe.js) and /healthz is polled.
// Beside it, the reference: the same process's loop while idle for the same time, measured in the same run.
// Figures: worst loop delay idle and during the send (until every follower is queued), the slowest /healthz answer,
// the request's time, the time until every follower was queued, and that each was queued exactly once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { founderCookie, founderPost, freePort, readProbe, ROOT, startServer } from "./support.js";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 60_000);
const ROWS_PER_INSERT = 500;

const log = (message) => console.log(`  [send-now] ${message}`);


const followers = (projectId) => Array.from({ length: FOLLOWERS }, (_, i) => [crypto.randomUUID(), projectId, `Follower ${i}`, `follower-${i}@send-now.bench.example`]);

function sqliteStore(dataDir) {
  const db = new SQLite(path.join(dataDir, "app.sqlite"));
  db.pragma("busy_timeout = 10000");
  return {
    label: "SQLite",
    seed(projectId) {
      const insert = db.prepare("insert into contacts (id, project_id, name, email, intent, subscribed, role_tags) values (?, ?, ?, ?, 'Subscriber', 1, '[]')");
      db.transaction(() => {
        for (const row of followers(projectId)) insert.run(...row);
      })();
    },
    latestUpdate: (projectId) => db.prepare("select id from project_updates where project_id = ? order by created_at desc limit 1").get(projectId).id,
    runMessages: (updateId) => Number(db.prepare("select messages from digest_runs where slot = ?").get(`now:${updateId}`)?.messages ?? 0),
    queued: () => db.prepare("select count(*) as mails, count(distinct recipient) as recipients from mail_outbox where kind = 'digest' and recipient like '%@send-now.bench.example'").get(),
    close: () => db.close(),
  };
}

async function pgStore(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    label: "PostgreSQL",
    async seed(projectId) {
      const rows = followers(projectId);
      for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
        const batch = rows.slice(start, start + ROWS_PER_INSERT);
        const values = batch.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4}, 'Subscriber', true, '[]')`).join(", ");
        await client.query(`insert into contacts (id, project_id, name, email, intent, subscribed, role_tags) values ${values}`, batch.flat());
      }
    },
    latestUpdate: async (projectId) => (await client.query("select id from project_updates where project_id = $1 order by created_at desc limit 1", [projectId])).rows[0].id,
    runMessages: async (updateId) => Number((await client.query("select messages from digest_runs where slot = $1", [`now:${updateId}`])).rows[0]?.messages ?? 0),
    async queued() {
      const { rows } = await client.query("select count(*)::int as mails, count(distinct recipient)::int as recipients from mail_outbox where kind = 'digest' and recipient like '%@send-now.bench.example'");
      return rows[0];
    },
    close: () => client.end(),
  };
}

/** A local SMTP server that takes every message, as production's relay would, and counts them. */
async function startSmtpSink() {
  const port = await freePort();
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => {
        received++;
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `smtp://127.0.0.1:${port}`, received: () => received, close: () => new Promise((resolve) => server.close(resolve)) };
}


/** Polls /healthz every 20 ms until stopped; answers the slowest round trip. */
function pollHealth(url) {
  let slowest = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${url}/healthz`)).text();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return async () => {
    running = false;
    await done;
    return slowest;
  };
}

async function measure(env, openStore) {
  const probeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-bench-probe-")), "loop.json");
  const probe = `--import=${path.join(ROOT, "bench", "event-loop-probe.js")}`;
  const smtp = await startSmtpSink();
  const server = await startServer({ ...env, SMTP_URL: smtp.url, NODE_OPTIONS: [process.env.NODE_OPTIONS, probe].filter(Boolean).join(" "), EVENT_LOOP_PROBE_FILE: probeFile });
  const figures = {};
  try {
    const cookie = await founderCookie(server.url, "bench-send-now");
    const created = await founderPost(server.url, cookie, "/project/create", {
      title: "Bench Send Now",
      slug: `bench-send-now-${Date.now()}`,
      oneLiner: "Many followers",
      status: "published",
      metrics: "[]",
      problemPoints: "[]",
      solutionPoints: "[]",
    });
    const projectId = new URL(created.headers.get("location"), server.url).pathname.split("/")[2];
    await founderPost(server.url, cookie, `/project/${projectId}/edit`, { intent: "post-update", body: "Shipped remote temperature alerts" });
    const store = await openStore(server.dataDir);
    const label = (what) => `${store.label}: ${what}`;
    log(`${store.label}: seeding ${FOLLOWERS.toLocaleString("en-US")} followers…`);
    await store.seed(projectId);
    const updateId = await store.latestUpdate(projectId);
    // Seeding blocked this process past the server's keep-alive: let fetch see the sockets the server closed.
    await new Promise((resolve) => setTimeout(resolve, 100));

    await readProbe(server, probeFile);
    const stopIdlePolling = pollHealth(server.url);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idleHealth = await stopIdlePolling();
    const idle = await readProbe(server, probeFile);

    const stopPolling = pollHealth(server.url);
    const started = performance.now();
    const response = await founderPost(server.url, cookie, `/project/${projectId}/edit`, { intent: "send-update-now", updateId });
    const requestMs = performance.now() - started;
    // The request queues the first batch; the digest's pass, woken by it, queues the rest.
    const deadline = Date.now() + 300_000;
    // Read from the run's row (one primary-key read): counting the outbox while it fills would compete with the app.
    while ((await store.runMessages(updateId)) < FOLLOWERS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    const allQueuedMs = performance.now() - started;
    const slowestHealth = await stopPolling();
    const during = await readProbe(server, probeFile);
    const queued = await store.queued();
    await store.close();

    figures[label("reference, idle loop for 3 s: worst delay / p99")] = `${idle.maxMs} ms / ${idle.p99Ms} ms (slowest /healthz ${Math.round(idleHealth)} ms)`;
    figures[label(`Send now to ${FOLLOWERS.toLocaleString("en-US")} followers: worst loop delay / p99`)] = `${during.maxMs} ms / ${during.p99Ms} ms`;
    figures[label("slowest /healthz answer during the send")] = `${Math.round(slowestHealth)} ms`;
    figures[label("Send now request, status and time to answer")] = `${response.status}, ${Math.round(requestMs)} ms`;
    figures[label("Send now to every follower queued")] = `${Math.round(allQueuedMs)} ms`;
    figures[label("delivered over SMTP meanwhile")] = smtp.received().toLocaleString("en-US");
    figures[label("mails queued, distinct recipients")] = `${Number(queued.mails).toLocaleString("en-US")}, ${Number(queued.recipients).toLocaleString("en-US")}`;
  } finally {
    await server.stop();
    await smtp.close();
    fs.rmSync(path.dirname(probeFile), { recursive: true, force: true });
  }
  return figures;
}

export default async function run() {
  const figures = await measure({}, (dataDir) => sqliteStore(dataDir));
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const name = `pitchqr_bench_send_now_${process.pid}`;
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    Object.assign(figures, await measure({ DATABASE_URL: url.toString() }, () => pgStore(url.toString())));
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run();
  for (const [label, value] of Object.entries(figures)) console.log(`  ${label}: ${value}`);
}
