import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { startServer } from "./support.js";
import { ensureWrk, fmt, runWrk } from "./wrk.js";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function scanScript(projectId) {
  return `
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["User-Agent"] = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"
local counter = 0
request = function()
  counter = counter + 1
  local body = string.format('{"projectId":"${projectId}","qrCodeId":null,"viewerFingerprint":"fp-%d-%d"}', math.random(1, 50000), counter % 7)
  -- Phones on 1,000 networks, each well within its allowance (2,000 per 10 minutes per address).
  wrk.headers["X-Forwarded-For"] = string.format("10.77.%d.%d", math.random(0, 3), math.random(1, 250))
  return wrk.format(nil, nil, nil, body)
end`;
}

async function measure(label, server, readProjectId, countScans) {
  const projectId = await readProjectId();
  await runWrk(`${server.url}/api/functions/track-scan`, { seconds: 3, script: scanScript(projectId) }); // warm-up
  const before = await countScans(projectId);
  const result = await runWrk(`${server.url}/api/functions/track-scan`, { script: scanScript(projectId) });
  const stored = (await countScans(projectId)) - before;
  const acknowledged = result.requests - result.non2xx;
  return {
    [`track-scan on ${label}`]: fmt(result),
    [`track-scan on ${label}: acknowledged / rows stored`]: `${acknowledged} / ${stored} (${stored >= acknowledged ? "none lost" : `${acknowledged - stored} LOST`})`,
  };
}

export default async function trackScan() {
  ensureWrk();
  const figures = {};

  const sqliteServer = await startServer({ TRUST_PROXY: "loopback" });
  try {
    const file = path.join(sqliteServer.dataDir, "app.sqlite");
    const db = new SQLite(file, { readonly: true });
    db.pragma("busy_timeout = 5000");
    Object.assign(
      figures,
      await measure(
        "SQLite",
        sqliteServer,
        async () => db.prepare("select id from projects where slug = 'demo-project'").get().id,
        async (id) => db.prepare("select count(*) as n from scans where project_id = ?").get(id).n,
      ),
    );
    db.close();
  } finally {
    await sqliteServer.stop();
  }

  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const name = `pitchqr_bench_${process.pid}`;
  await admin.query(`drop database if exists "${name}"`);
  await admin.query(`create database "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const pgServer = await startServer({ DATABASE_URL: url.toString(), TRUST_PROXY: "loopback" });
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    Object.assign(
      figures,
      await measure(
        "PostgreSQL",
        pgServer,
        async () => (await client.query("select id from projects where slug = 'demo-project'")).rows[0].id,
        async (id) => Number((await client.query("select count(*) as n from scans where project_id = $1", [id])).rows[0].n),
      ),
    );
  } finally {
    await client.end();
    await pgServer.stop();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
  return figures;
}
