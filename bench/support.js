import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node server.js` as `npm start` does (default settings: LOG_LEVEL info, a JSON line per request) on a
 * fresh data directory, and times it to the first 200 from /healthz. Its output goes to /dev/null unless
 * BENCH_SERVER_LOGS is set: written, as a terminal or a log collector would take it, but not shown.
 */
export async function startServer(env = {}) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-bench-"));
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, ["server.js"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, PUBLIC_URL: url, ...env },
    stdio: ["ignore", process.env.BENCH_SERVER_LOGS ? "inherit" : "ignore", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - started;
  return {
    url,
    dataDir,
    pid: child.pid,
    readyMs,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** A phone's browser, as the benchmarks' visitors present themselves. */
export const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";

/** A new founder account signed in: its session cookie, as a browser keeps it (`name` tells the benches' accounts apart). */
export async function founderCookie(url, name = "bench") {
  const email = `${name}-${Date.now()}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const post = (intent) =>
    fetch(`${url}/auth`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent, email, password: "bench-password" }),
    });
  await (await post("signup")).text();
  const signIn = await post("signin");
  await signIn.text();
  return signIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .filter((pair) => !pair.startsWith("flash="))
    .join("; ");
}

/** A founder's form post, as the browser sends it (same origin, the session cookie), its answer read to the end. */
export async function founderPost(url, cookie, pathname, fields) {
  const response = await fetch(`${url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: url, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  await response.text();
  return response;
}

/**
 * Scans of one project from 1,000 phones on as many networks, as fast as `connections` send them, for at most
 * `seconds` or until stopped; `stop()` answers the flood's requests per second.
 */
export function floodScans(url, projectId, { connections, seconds }) {
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wrk-")), "scan.lua");
  fs.writeFileSync(
    script,
    `wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["User-Agent"] = "${PHONE}"
request = function()
  wrk.headers["X-Forwarded-For"] = string.format("10.77.%d.%d", math.random(0, 3), math.random(1, 250))
  local body = string.format('{"projectId":"${projectId}","qrCodeId":null,"viewerFingerprint":"flood-%d"}', math.random(1, 50000))
  return wrk.format(nil, nil, nil, body)
end`,
  );
  const child = spawn("wrk", ["-t2", `-c${connections}`, `-d${seconds}s`, "-s", script, `${url}/api/functions/track-scan`], { stdio: ["ignore", "pipe", "ignore"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  // Listened for from the start: a flood that ended on its own has already exited when it is stopped.
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      await exited;
      return Number(output.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0);
    },
  };
}

/** What the probe in the app's process saw since the last reading (and starts a new measurement). */
export async function readProbe(server, file) {
  fs.rmSync(file, { force: true });
  process.kill(server.pid, "SIGUSR2");
  for (;;) {
    if (fs.existsSync(file)) {
      const text = fs.readFileSync(file, "utf8");
      if (text) return JSON.parse(text);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
