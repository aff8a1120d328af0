// `npm run bench deck-reading`: the deck reader's beats (POST /api/deck-reading) on one instance started as
// `npm start` does, against the demo project's 6-page deck.
// 1. 1,000 readers open on the pitch page, each a phone with its own signed viewer cookie (from one load of the
//    page) and its own view, a beat every BEAT_INTERVAL_MS, staggered evenly over the interval: the beats recorded
//    per second, a beat's answer p50/p99, the app's event loop (bench/event-loop-probe.js) and the cached pitch page
//    p50/p99, each beside the same process idle.
// 2. Capacity: beats sent as fast as a pool of 32 requests allows, for 10 s.
// The generator is node:http with a keep-alive agent (this Node's fetch takes no agent without the undici
// package); its own CPU, the app's and the machine's load are printed, so a starved app shows.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { PHONE, readProbe, ROOT, startServer } from "./support.js";

const READERS = 1_000;
const BEAT_INTERVAL_MS = 10_000; // BEAT_INTERVAL_MS in app/modules/deck-reading/reading-rules.ts
const MEASURE_MS = 20_000;
const CAPACITY_POOL = 32;
const CAPACITY_MS = 10_000;
const PITCH_EVERY_MS = 50;
const HEADERS = { "user-agent": PHONE, "accept-language": "en-US,en;q=0.9", "accept-encoding": "gzip" };
const log = (message) => console.log(`  [deck-reading] ${message}`);
const ms = (value) => `${value.toFixed(1)} ms`;

const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const p50p99 = (values) => `p50 ${ms(percentile(values, 50))} / p99 ${ms(percentile(values, 99))} (${values.length} requests)`;
const sleep = (delay) => new Promise((resolve) => setTimeout(resolve, delay));

/** One request on a kept-alive socket, its answer read to the end: status, headers, body and ms to the last byte. */
function request(agent, url, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - started }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** CPU seconds of a process so far: this one's own, or the app's from /proc (Linux). */
function appCpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}
function cpuMeter(pid) {
  const started = performance.now();
  const own = process.cpuUsage();
  const app = appCpuSeconds(pid);
  return () => {
    const wall = (performance.now() - started) / 1000;
    const used = process.cpuUsage(own);
    const share = (seconds) => `${Math.round((seconds / wall) * 100)}% of a core`;
    return { generator: share((used.user + used.system) / 1e6), app: share(appCpuSeconds(pid) - app) };
  };
}

/** GETs of the cached pitch page by one returning phone, one every PITCH_EVERY_MS until stopped: their times. */
function samplePitchPage(url, cookie) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const next = performance.now() + PITCH_EVERY_MS;
      const answer = await request(agent, url, { headers: { ...HEADERS, cookie } });
      if (answer.status !== 200) throw new Error(`pitch page answered ${answer.status}`);
      times.push(answer.ms);
      await sleep(Math.max(0, next - performance.now()));
    }
  })();
  return async () => {
    running = false;
    await done;
    agent.destroy();
    return times;
  };
}

/** A phone's first load of the page: its signed viewer cookie. */
async function viewerCookie(agent, url) {
  const answer = await request(agent, url, { headers: HEADERS });
  const line = [answer.headers["set-cookie"] ?? []].flat().find((value) => !value.startsWith("flash="));
  if (answer.status !== 200 || !line) throw new Error(`pitch page gave no viewer cookie (${answer.status})`);
  return line.split(";")[0];
}

async function viewerCookies(agent, url, count) {
  const cookies = [];
  const worker = async () => {
    while (cookies.length < count) {
      cookies.push(null);
      const at = cookies.length - 1;
      cookies[at] = await viewerCookie(agent, url);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return cookies;
}

const newViewId = () => crypto.randomUUID().replaceAll("-", "");

/** A reader's view: its next beat (the opening one empty, then each interval's time on the next page of six). */
function readerView(where, cookie) {
  const view = newViewId();
  let seq = 0;
  return {
    cookie,
    nextBeat() {
      const k = seq++;
      const age = k * BEAT_INTERVAL_MS;
      const segments = k === 0 ? [] : [[((k - 1) % 6) + 1, age - BEAT_INTERVAL_MS, age]];
      return { project: where.project, deck: where.deck, view, seq: k, age, qr: null, segments };
    },
  };
}

/** Sends one beat as the reader does; its time and whether it was recorded. */
async function sendBeat(agent, server, reader) {
  const body = JSON.stringify({ beats: [reader.nextBeat()] });
  const answer = await request(agent, `${server.url}/api/deck-reading`, {
    method: "POST",
    headers: { ...HEADERS, cookie: reader.cookie, origin: server.url, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    body,
  });
  const outcome = answer.status === 200 ? JSON.parse(answer.body.toString("utf8")).outcomes[0] : `status ${answer.status}`;
  return { ms: answer.ms, outcome };
}

const tally = (results) => {
  const counts = new Map();
  for (const { outcome } of results) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return [...counts].map(([outcome, n]) => `${outcome} ${n}`).join(", ");
};

export default async function run() {
  const figures = {};
  const probeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-bench-probe-")), "loop.json");
  const probe = `--import=${path.join(ROOT, "bench", "event-loop-probe.js")}`;
  const server = await startServer({ NODE_OPTIONS: [process.env.NODE_OPTIONS, probe].filter(Boolean).join(" "), EVENT_LOOP_PROBE_FILE: probeFile });
  const db = new SQLite(path.join(server.dataDir, "app.sqlite"), { readonly: true });
  db.pragma("busy_timeout = 5000");
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  try {
    // The demo's deck is drawn at start-up: the idle reading begins once it is on the page.
    for (let waited = 0; db.prepare("select count(*) as n from decks where status = 'rendering'").get().n > 0; waited += 50) {
      if (waited > 120_000) throw new Error("timed out waiting for the demo deck");
      await sleep(50);
    }
    const page = `${server.url}/pitch/demo-project`;
    const first = await request(agent, page, { headers: HEADERS });
    await request(agent, page, { headers: HEADERS });
    const html = (await request(agent, page, { headers: { "user-agent": PHONE, "accept-language": "en-US" } })).body.toString("utf8");
    const where = { project: html.match(/data-project-id="([^"]+)"/)?.[1], deck: html.match(/data-deck-reader="([^"]+)"/)?.[1] };
    if (!where.project || !where.deck) throw new Error("the pitch page names no project or deck");
    const pages = db.prepare("select page_count as n from decks where id = ?").get(where.deck)?.n;
    figures["the demo's deck"] = `${pages} pages; page served from the cache: ${first.headers["x-page-cache"] === "hit" ? "yes" : "no"}`;

    log(`getting ${READERS} viewer cookies (one page load each)…`);
    const cookies = await viewerCookies(agent, page, READERS * 2);
    const readers = cookies.slice(0, READERS).map((cookie) => readerView(where, cookie));
    const pitchCookie = await viewerCookie(agent, page);

    // Idle: nothing, then the pitch page alone.
    await sleep(1_000);
    await readProbe(server, probeFile);
    await sleep(5_000);
    const idleLoop = await readProbe(server, probeFile);
    const stopIdlePitch = samplePitchPage(page, pitchCookie);
    await sleep(5_000);
    const idlePitch = await stopIdlePitch();

    log(`${READERS} readers, a beat each every ${BEAT_INTERVAL_MS / 1000} s; measuring ${MEASURE_MS / 1000} s after one interval…`);
    const results = [];
    let measuring = false;
    let readersRunning = true;
    const inFlight = new Set();
    const readerLoop = async (reader, index) => {
      await sleep((index * BEAT_INTERVAL_MS) / READERS);
      const startedAt = performance.now();
      for (let k = 0; readersRunning; k += 1) {
        const sent = sendBeat(agent, server, reader).then((result) => {
          if (measuring) results.push(result);
        });
        inFlight.add(sent);
        void sent.finally(() => inFlight.delete(sent));
        await sleep(Math.max(0, startedAt + (k + 1) * BEAT_INTERVAL_MS - performance.now()));
      }
    };
    const loops = readers.map(readerLoop);
    await sleep(BEAT_INTERVAL_MS + 500);
    measuring = true;
    const readersCpu = cpuMeter(server.pid);
    await readProbe(server, probeFile);
    const stopBusyPitch = samplePitchPage(page, pitchCookie);
    const measureStarted = performance.now();
    await sleep(MEASURE_MS);
    measuring = false;
    const busyLoop = await readProbe(server, probeFile);
    const busyPitch = await stopBusyPitch();
    const measuredSeconds = (performance.now() - measureStarted) / 1000;
    const readersCpuUse = readersCpu();
    readersRunning = false;
    await Promise.all(loops);
    await Promise.all(inFlight);
    const recorded = results.filter((result) => result.outcome === "recorded").length;

    figures["readers: beats recorded per second"] = `${(recorded / measuredSeconds).toFixed(1)} (${READERS} readers at one per ${BEAT_INTERVAL_MS / 1000} s send ${READERS / (BEAT_INTERVAL_MS / 1000)})`;
    figures["readers: answers"] = tally(results);
    figures["readers: a beat's answer"] = `${p50p99(results.map((result) => result.ms))} (aim p99 ≤ 50 ms)`;
    figures["app: event loop p99, idle (reference)"] = `${idleLoop.p99Ms} ms (max ${idleLoop.maxMs} ms)`;
    figures["app: event loop p99 with the readers"] = `${busyLoop.p99Ms} ms (max ${busyLoop.maxMs} ms; aim ≤ idle + 20 ms)`;
    figures["pitch page (cached, a returning phone), idle (reference)"] = p50p99(idlePitch);
    figures["pitch page with the readers"] = `${p50p99(busyPitch)} (aim p99 ≤ idle p99 + 20 ms)`;
    figures["CPU with the readers: app / this generator"] = `${readersCpuUse.app} / ${readersCpuUse.generator}`;
    figures["machine load (1 min average) with the readers"] = `${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores (other work shares them)`;

    log(`capacity: beats as fast as ${CAPACITY_POOL} at a time allow, for ${CAPACITY_MS / 1000} s…`);
    // Fresh viewers and views: the per-viewer ceiling (30 a minute) is the browser's, not the instance's.
    const capacityReaders = cookies.slice(READERS).map((cookie) => readerView(where, cookie));
    const capacity = [];
    const capacityCpu = cpuMeter(server.pid);
    await readProbe(server, probeFile);
    const capacityStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CAPACITY_POOL }, async () => {
        while (performance.now() - capacityStarted < CAPACITY_MS) {
          capacity.push(await sendBeat(agent, server, capacityReaders[next++ % capacityReaders.length]));
        }
      }),
    );
    const capacitySeconds = (performance.now() - capacityStarted) / 1000;
    const capacityLoop = await readProbe(server, probeFile);
    const capacityCpuUse = capacityCpu();
    const capacityRecorded = capacity.filter((result) => result.outcome === "recorded").length;
    figures["capacity: beats recorded per second"] = `${Math.round(capacityRecorded / capacitySeconds).toLocaleString("en-US")} (${CAPACITY_POOL} at a time, ${capacityReaders.length} viewers)`;
    figures["capacity: answers"] = tally(capacity);
    figures["capacity: a beat's answer"] = p50p99(capacity.map((result) => result.ms));
    figures["capacity: event loop p99"] = `${capacityLoop.p99Ms} ms (max ${capacityLoop.maxMs} ms)`;
    figures["CPU at capacity: app / this generator"] = `${capacityCpuUse.app} / ${capacityCpuUse.generator}`;
    figures["machine load (1 min average) at capacity"] = `${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`;
    const rows = db.prepare("select count(*) as views, coalesce(sum(ms), 0) as ms from deck_views where project_id = ?").get(where.project);
    const beats = db.prepare("select count(*) as n from deck_beats").get().n;
    figures["stored after the run"] = `${rows.views} views, ${beats} beats, ${Math.round(rows.ms / 1000).toLocaleString("en-US")} s read`;
  } finally {
    agent.destroy();
    db.close();
    await server.stop();
  }
  return figures;
}
