// Push where the founder looks (issue 28 item 1, decision 56): from a visitor's intro (the HTTP request) to the push
// arriving at a push service, on an idle server and on one loaded by a scan flood, beside the reference measured in
// the same run: the intro's own answer. The push service is a local HTTP server named by PUSH_SERVICE_ORIGINS; the
// founder's device subscribes with keys generated here as a browser would. Each intro waits for its push before
// the next, so an arrival belongs to the intro just sent. The scan flood saturates the server (as bench/booth.js's
// does): there the intro's own answer, not the push, is what waits.
import crypto from "node:crypto";
import http from "node:http";
import { floodScans, founderPost, PHONE, startServer } from "./support.js";
import { ensureWrk } from "./wrk.js";

const PROBES = 30;
const WAIT_MS = 30_000;

async function startPushService() {
  let onPush = null;
  let pushes = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      pushes += 1;
      response.writeHead(201).end();
      onPush?.(performance.now());
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    get pushes() {
      return pushes;
    },
    /**
     * The time the next push arrives, or null when none does within WAIT_MS (a flooded server may take a minute to
     * answer at all: a shorter wait would hand a late push to the next probe).
     */
    next() {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), WAIT_MS);
        onPush = (at) => {
          clearTimeout(timer);
          onPush = null;
          resolve(at);
        };
      });
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}


/** A founder with a project and one device subscribed on the local push service. */
async function founderWithDevice(url, pushOrigin) {
  const email = `bench-push-${Date.now()}@example.com`;
  const auth = (intent) => founderPost(url, "", "/auth", { intent, email, password: "bench-password" });
  await auth("signup");
  const signIn = await auth("signin");
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .filter((pair) => !pair.startsWith("flash="))
    .join("; ");
  const created = await founderPost(url, cookie, "/project/create", {
    title: "Bench Push",
    slug: `bench-push-${Date.now()}`,
    oneLiner: "Pushes at volume",
    status: "published",
    metrics: "[]",
    problemPoints: "[]",
    solutionPoints: "[]",
    tiers: JSON.stringify([{ rangeLabel: "Angel", rangeMin: 5000, rangeMax: 25000, perks: [] }]),
  });
  const projectId = new URL(created.headers.get("location"), url).pathname.split("/")[2];
  const ecdh = crypto.createECDH("prime256v1");
  const subscribed = await founderPost(url, cookie, `/project/${projectId}/leads/settings`, {
    intent: "push-on",
    endpoint: `${pushOrigin}/push/bench-device`,
    p256dh: ecdh.generateKeys().toString("base64url"),
    auth: crypto.randomBytes(16).toString("base64url"),
    device: "Bench phone",
  });
  if (subscribed.status !== 200) throw new Error(`subscribing the device answered ${subscribed.status}`);
  return projectId;
}


const percentile = (sorted, share) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * share) - 1)];

async function probes(url, projectId, pushService, offset) {
  const delivered = [];
  const answered = [];
  for (let index = offset; index < offset + PROBES; index += 1) {
    const arrival = pushService.next();
    const started = performance.now();
    const response = await fetch(`${url}/api/functions/submit-intro`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": PHONE, "x-forwarded-for": `10.91.${Math.floor(index / 200)}.${(index % 200) + 1}` },
      body: JSON.stringify({ projectId, contact: { name: `Push${index} Visitor`, email: `push${index}-${crypto.randomBytes(3).toString("hex")}@example.com` }, note: "Push bench" }),
    });
    answered.push(performance.now() - started);
    if (!response.ok) throw new Error(`submit-intro answered ${response.status}: ${await response.text()}`);
    await response.text();
    const at = await arrival;
    if (at !== null) delivered.push(at - started);
  }
  const show = (times) => {
    const sorted = [...times].sort((a, b) => a - b);
    if (sorted.length === 0) return `none of ${PROBES} within ${WAIT_MS / 1000} s`;
    const missed = PROBES - sorted.length;
    const within5s = sorted.filter((time) => time <= 5_000).length;
    return `p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms, ${within5s} of ${PROBES} within 5 s${missed ? `, ${missed} never arrived` : ""}`;
  };
  return `${show(delivered)} (reference, the intro's own answer: ${show(answered)})`;
}

export default async function founderPush() {
  ensureWrk();
  const pushService = await startPushService();
  const server = await startServer({ TRUST_PROXY: "loopback", PUSH_SERVICE_ORIGINS: pushService.origin });
  try {
    const projectId = await founderWithDevice(server.url, pushService.origin);
    await probes(server.url, projectId, pushService, 900).catch(() => undefined); // warm-up: each route's first request loads its code
    const idle = await probes(server.url, projectId, pushService, 0);
    // 8 connections: a busy event (the server's one thread mostly occupied), not a saturated one, so the figure is
    // the push's delay on a loaded server rather than a queue's.
    const flood = floodScans(server.url, projectId, { connections: 8, seconds: 300 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const loaded = await probes(server.url, projectId, pushService, 100);
    const floodRate = await flood.stop();
    return {
      "submit to push delivered, idle server": idle,
      [`submit to push delivered, during a scan flood (${Math.round(floodRate).toLocaleString("en-US")} track-scan req/s)`]: loaded,
      "pushes received (warm-up included)": String(pushService.pushes),
    };
  } finally {
    await server.stop();
    await pushService.close();
  }
}
