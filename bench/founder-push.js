// Push where the founder looks (decision 56): from a visitor's intro (the HTTP request) to the push
// arriving at a push service, on an idle server and on one loaded by a scan flood, beside the reference measured in
// the same run: the intro's own answer. The push service is a local HTTP server named by PUSH_SERVICE_ORIGINS; the
// founder's device subscribes with keys generated here as a browser would. Each intro waits for its push before
// the next, so an arrival belongs to the intro just sent. The scan flood saturates the server (as bench/booth.js's
// does): there the intro's own answer, not the push, is what waits. The slow-neighbour case measures the same while
// another founder's device sits on a push endpoint that never answers and their visitors keep coming (4 intros a
// second, this founder's intros 400 ms apart so they span the hanging push's 10 s deadline): that founder's pushes
// must not hold up this one's.
import crypto from "node:crypto";
import http from "node:http";
import { floodScans, founderPost, PHONE, startServer } from "./support.js";
import { ensureWrk } from "./wrk.js";

const PROBES = 30;
const WAIT_MS = 30_000;

/** Pushes to this path are received and never answered: the slow neighbour's device. */
const HANGING_PATH = "/push/slow-neighbour";

async function startPushService() {
  let onPush = null;
  let pushes = 0;
  let hanging = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.url === HANGING_PATH) {
        hanging += 1;
        return;
      }
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
    get hanging() {
      return hanging;
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
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}


/** A founder with a project and one device subscribed on the local push service, at `devicePath`. */
async function founderWithDevice(url, pushOrigin, devicePath = "/push/bench-device") {
  const email = `bench-push-${Date.now()}-${crypto.randomBytes(3).toString("hex")}@example.com`;
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
    slug: `bench-push-${Date.now()}-${crypto.randomBytes(3).toString("hex")}`,
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
    endpoint: `${pushOrigin}${devicePath}`,
    p256dh: ecdh.generateKeys().toString("base64url"),
    auth: crypto.randomBytes(16).toString("base64url"),
    device: "Bench phone",
  });
  if (subscribed.status !== 200) throw new Error(`subscribing the device answered ${subscribed.status}`);
  return projectId;
}


/** The slow neighbour's visitors: an intro every 250 ms until stopped, each queuing a push that will hang. */
function neighbourIntros(url, projectId) {
  let stopped = false;
  let sent = 0;
  const done = (async () => {
    while (!stopped) {
      sent += 1;
      const response = await fetch(`${url}/api/functions/submit-intro`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": PHONE, "x-forwarded-for": `10.92.${Math.floor(sent / 200) % 250}.${(sent % 200) + 1}` },
        body: JSON.stringify({ projectId, contact: { name: `Neighbour${sent} Visitor`, email: `neighbour${sent}-${crypto.randomBytes(3).toString("hex")}@example.com` }, note: "Slow neighbour" }),
      });
      await response.text();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return sent;
    },
  };
}

const percentile = (sorted, share) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * share) - 1)];

/** PROBES intros one after another, each awaiting its push, `pauseMs` apart. */
async function probes(url, projectId, pushService, offset, pauseMs = 0) {
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
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
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
    const neighbourProject = await founderWithDevice(server.url, pushService.origin, HANGING_PATH);
    const neighbour = neighbourIntros(server.url, neighbourProject);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // 400 ms apart, so the probes span the hanging push's 10 s deadline and its retry's hold-off.
    const besideSlow = await probes(server.url, projectId, pushService, 300, 400);
    const neighbourIntrosSent = await neighbour.stop();
    // 8 connections: a busy event (the server's one thread mostly occupied), not a saturated one, so the figure is
    // the push's delay on a loaded server rather than a queue's.
    const flood = floodScans(server.url, projectId, { connections: 8, seconds: 300 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const loaded = await probes(server.url, projectId, pushService, 100);
    const floodRate = await flood.stop();
    return {
      "submit to push delivered, idle server": idle,
      [`submit to push delivered, beside a slow neighbour (another founder's device never answers; ${neighbourIntrosSent} of their intros meanwhile, ${pushService.hanging} pushes to it hanging or timed out)`]:
        besideSlow,
      [`submit to push delivered, during a scan flood (${Math.round(floodRate).toLocaleString("en-US")} track-scan req/s)`]: loaded,
      "pushes received (warm-up included)": String(pushService.pushes),
    };
  } finally {
    await server.stop();
    await pushService.close();
  }
}
