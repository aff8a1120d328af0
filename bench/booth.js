// Booth mode: how long a scan and an intro take to reach an open booth screen's stream, on a quiet app
// and while a venue's scans flood it, beside the reference measured in the same run: the same request's own
// answer (the visitor's round trip). The app runs as `npm start` runs it (SQLite, request logs on); the booth is
// opened through a booth link, as a staff tablet opens it.
import crypto from "node:crypto";
import path from "node:path";
import SQLite from "better-sqlite3";
import { floodScans, median, PHONE, startServer } from "./support.js";
import { ensureWrk } from "./wrk.js";

const PROBES = 15;

/** A booth link for the demo project and a QR code only the probes scan, written as the app writes them. */
function prepare(dataDir) {
  const db = new SQLite(path.join(dataDir, "app.sqlite"));
  db.pragma("busy_timeout = 5000");
  const projectId = db.prepare("select id from projects where slug = 'demo-project'").get().id;
  const token = crypto.randomBytes(32).toString("base64url");
  const now = new Date();
  db.prepare("insert into booth_links (id, project_id, token_hash, created_at, expires_at) values (?, ?, ?, ?, ?)").run(
    crypto.randomUUID(),
    projectId,
    crypto.createHash("sha256").update(token).digest("hex"),
    now.toISOString(),
    new Date(now.getTime() + 3 * 86_400_000).toISOString(),
  );
  const probeQr = crypto.randomUUID();
  db.prepare("insert into qr_codes (id, project_id, label, event_tag, created_at) values (?, ?, ?, ?, ?)").run(probeQr, projectId, "Probe", "Probe", now.toISOString());
  db.close();
  return { projectId, token, probeQr };
}

/** The booth's stream, read as EventSource reads it: resolves `waitFor(test)` when a ticker line passes `test`. */
async function openBooth(url, projectId, token) {
  const controller = new AbortController();
  const response = await fetch(`${url}/project/${projectId}/booth/stream`, { headers: { cookie: `pitchqr_booth=${token}` }, signal: controller.signal });
  if (!response.ok) throw new Error(`booth stream answered ${response.status}`);
  const waiters = new Set();
  const decoder = new TextDecoder();
  let buffer = "";
  (async () => {
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!/^event: ticker$/m.test(block)) continue;
          const items = JSON.parse(block.match(/^data: (.*)$/m)[1]);
          const at = performance.now();
          for (const waiter of [...waiters]) if (items.some(waiter.test)) waiter.resolve(at);
        }
      }
    } catch {
      // closed at the end of the run
    }
  })();
  return {
    /** The time the first ticker line passing `test` arrived, or null when none did within 25 s. */
    waitFor(test) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => waiter.resolve(null), 25_000);
        const waiter = { test, resolve: (at) => (clearTimeout(timer), waiters.delete(waiter), resolve(at)) };
        waiters.add(waiter);
      });
    },
    close: () => controller.abort(),
  };
}

const post = (url, body, address) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "User-Agent": PHONE, "X-Forwarded-For": address }, body: JSON.stringify(body) });

/** One scan and one intro, each timed to its answer and to its line on the booth. */
async function probe(server, booth, ids, index) {
  const scanId = `probe-${index}-${crypto.randomBytes(4).toString("hex")}`;
  const scanSeen = booth.waitFor((item) => item.kind === "scan" && item.eventLabel === "Probe");
  let started = performance.now();
  const scan = await post(`${server.url}/api/functions/track-scan`, { projectId: ids.projectId, qrCodeId: ids.probeQr, viewerFingerprint: scanId }, `10.90.1.${index + 1}`);
  const scanAnswered = performance.now() - started;
  if (!scan.ok) throw new Error(`probe scan answered ${scan.status}`);
  const scanSeenAt = await scanSeen;
  const scanOnBooth = scanSeenAt === null ? null : scanSeenAt - started;

  const name = `Probe${index} Visitor`;
  // The ticker names nobody ("Someone requested an intro"), and shows a form once its burst window has passed
  // (10 s, decision 95): the probe's intro is the only one in flight.
  const introSeen = booth.waitFor((item) => item.kind === "intro");
  started = performance.now();
  const intro = await post(
    `${server.url}/api/functions/submit-intro`,
    { projectId: ids.projectId, contact: { name, email: `probe${index}-${crypto.randomBytes(3).toString("hex")}@example.com` }, note: "Booth benchmark" },
    `10.91.${index}.1`,
  );
  const introAnswered = performance.now() - started;
  if (!intro.ok) throw new Error(`probe intro answered ${intro.status}: ${await intro.text()}`);
  const introSeenAt = await introSeen;
  const introOnBooth = introSeenAt === null ? null : introSeenAt - started;
  // Scans of one event within a minute share a line on the screen; the stream still sends each one.
  await new Promise((resolve) => setTimeout(resolve, 150));
  return { scanAnswered, scanOnBooth, introAnswered, introOnBooth };
}

async function probes(server, booth, ids, offset) {
  const results = [];
  for (let index = 0; index < PROBES; index += 1) results.push(await probe(server, booth, ids, offset + index));
  const show = (key) => {
    const times = results.map((result) => result[key]).filter((time) => time !== null).sort((a, b) => a - b);
    const missed = results.length - times.length;
    if (times.length === 0) return `none of ${results.length} within 10 s`;
    const p90 = times[Math.min(times.length - 1, Math.floor(times.length * 0.9))];
    return `median ${median(times).toFixed(0)} ms, p90 ${p90.toFixed(0)} ms${missed ? `, ${missed} of ${results.length} not within 10 s` : ""}`;
  };
  return {
    scan: `on the booth ${show("scanOnBooth")} (reference, the scan's own answer: ${show("scanAnswered")})`,
    intro: `on the booth ${show("introOnBooth")} (reference, the intro's own answer: ${show("introAnswered")})`,
  };
}


export default async function booth() {
  ensureWrk();
  const server = await startServer({ TRUST_PROXY: "loopback" });
  const ids = prepare(server.dataDir);
  const screen = await openBooth(server.url, ids.projectId, ids.token);
  try {
    await probe(server, screen, ids, 900); // warm-up: each route's first request loads its code
    const quiet = await probes(server, screen, ids, 0);
    const flood = floodScans(server.url, ids.projectId, { connections: 50, seconds: 120 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const loaded = await probes(server, screen, ids, 100);
    const floodRate = await flood.stop();
    return {
      "scan to booth, quiet": quiet.scan,
      "intro to booth, quiet": quiet.intro,
      [`scan to booth, during a scan flood (${Math.round(floodRate).toLocaleString("en-US")} track-scan req/s)`]: loaded.scan,
      "intro to booth, during the same flood": loaded.intro,
    };
  } finally {
    screen.close();
    await server.stop();
  }
}
