import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { freePort, ROOT, startServer } from "./support.js";
import { ensureWrk, fmt, runWrk } from "./wrk.js";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const AUTH_SECRET = "bench-instances-secret-0123456789abcdef";
const QR_CODE_ID = "bench-booth";
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** bench/round-robin.js in its own process: each new connection to it goes to the next instance in turn. */
async function startRoundRobin(ports) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, "bench/round-robin.js"), String(port), ...ports.map(String)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill();
      await exited;
    },
  };
}

/** User plus system CPU seconds a process has used so far (Linux `/proc/{pid}/stat`, fields 14 and 15). */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

function scanScript(projectId) {
  // Fingerprints drawn from a pool, so instances keep inserting the same new viewers at the same time.
  return `
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["User-Agent"] = "${PHONE_UA}"
request = function()
  local body = string.format('{"projectId":"${projectId}","qrCodeId":"${QR_CODE_ID}","viewerFingerprint":"fp-%d"}', math.random(1, 20000))
  -- Phones on 1,000 networks, each well within its allowance (2,000 per 10 minutes per address).
  wrk.headers["X-Forwarded-For"] = string.format("10.77.%d.%d", math.random(0, 3), math.random(1, 250))
  return wrk.format(nil, nil, nil, body)
end`;
}

/** wrk for `seconds` after a 2 s warm-up, with the instances' CPU time over the measured run. */
async function measure(url, servers, options) {
  await runWrk(url, { ...options, seconds: 2 });
  const before = servers.map((server) => cpuSeconds(server.pid));
  const result = await runWrk(url, { ...options, seconds: 10 });
  const cpu = servers.reduce((sum, server, index) => sum + cpuSeconds(server.pid) - before[index], 0);
  const served = result.requests - result.non2xx;
  return `${fmt(result)}; ${((cpu * 1000) / Math.max(1, result.requests)).toFixed(2)} ms CPU per request${served < result.requests ? ` (${served} answered 2xx)` : ""}`;
}

async function runConfiguration(instances, admin) {
  const name = `pitchqr_bench_instances_${process.pid}_${instances}`;
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString(), AUTH_SECRET, TRUST_PROXY: "loopback" };
  const servers = [];
  let balancer;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    // One after the other: the first migrates and seeds, the others find the database ready.
    for (let index = 0; index < instances; index += 1) servers.push(await startServer(env));
    await client.connect();
    const projectId = (await client.query("select id from projects where slug = 'demo-project'")).rows[0].id;
    await client.query("insert into qr_codes (id, project_id, label) values ($1, $2, 'Booth')", [QR_CODE_ID, projectId]);
    balancer = await startRoundRobin(servers.map((server) => Number(new URL(server.url).port)));

    // Every load a new phone (wrk keeps no cookies): a scan and a new viewer written per request.
    const pitch = await measure(`${balancer.url}/pitch/demo-project?qr=${QR_CODE_ID}`, servers, {
      headers: { "User-Agent": PHONE_UA, "Accept-Encoding": "gzip", "Accept-Language": "en-US,en;q=0.9" },
    });
    const scan = await measure(`${balancer.url}/api/functions/track-scan`, servers, {
      script: scanScript(projectId),
    });
    await client.end();
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    // Read once every instance has closed its connections, so their statistics are flushed.
    const { rows } = await admin.query("select deadlocks from pg_stat_database where datname = $1", [name]);
    return { pitch, scan, deadlocks: Number(rows[0]?.deadlocks ?? 0) };
  } finally {
    await client.end().catch(() => {});
    await balancer?.stop();
    await Promise.all(servers.map((server) => server.stop()));
    await admin.query(`drop database if exists "${name}" with (force)`);
  }
}

/**
 * Pitch page loads and track-scan calls on PostgreSQL through a round-robin balancer, with one
 * instance and with three, side by side: throughput, and the instances' CPU time per request (on a machine
 * with few cores, more instances share the same cores with PostgreSQL, so throughput cannot grow; CPU per
 * request shows what sharing the counter rows costs).
 */
export default async function instances() {
  ensureWrk();
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const figures = {};
  try {
    const results = {};
    for (const count of [1, 3]) results[count] = await runConfiguration(count, admin);
    for (const count of [1, 3]) figures[`pitch page (new phone per load), ${count} instance${count > 1 ? "s" : ""}`] = results[count].pitch;
    for (const count of [1, 3]) figures[`track-scan (20,000 shared fingerprints), ${count} instance${count > 1 ? "s" : ""}`] = results[count].scan;
    for (const count of [1, 3]) figures[`PostgreSQL deadlocks, ${count} instance${count > 1 ? "s" : ""}`] = results[count].deadlocks;
  } finally {
    await admin.end();
  }
  return figures;
}
