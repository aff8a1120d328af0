import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** wrk from Debian's packages: installed on first use (the machines start without it). */
export function ensureWrk() {
  if (spawnSync("wrk", ["--version"]).error === undefined) return;
  console.log("installing wrk (Debian package)...");
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "ignore" });
  const install = spawnSync("apt-get", ["install", "-y", "-qq", "wrk"], { stdio: "ignore", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  if (update.status !== 0 || install.status !== 0) throw new Error("wrk is missing and could not be installed (apt-get install wrk)");
}

/**
 * Runs `wrk -t2 -c50 -d10s --latency` (or the given options) and returns requests/s, p99 and counts. wrk runs
 * as a child process while this event loop keeps turning: blocked for the run, it would not see the server close
 * an idle kept-alive socket (after its 5 s keep-alive), and the next `fetch` would reuse that socket and fail with
 * "other side closed".
 */
export async function runWrk(url, { threads = 2, connections = 50, seconds = 10, script, headers = {} } = {}) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, "--latency"];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  let scriptFile;
  if (script) {
    scriptFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wrk-")), "script.lua");
    fs.writeFileSync(scriptFile, script);
    args.push("-s", scriptFile);
  }
  args.push(url);
  const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const status = await new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (status !== 0) throw new Error(`wrk failed: ${stderr}`);
  const number = (pattern) => {
    const match = out.match(pattern);
    return match ? Number(match[1]) : 0;
  };
  const p99 = out.match(/99%\s+([\d.]+)(us|ms|s)\b/);
  const p99Ms = p99 ? Number(p99[1]) * (p99[2] === "us" ? 0.001 : p99[2] === "s" ? 1000 : 1) : NaN;
  const requests = number(/(\d+) requests in/);
  const non2xx = number(/Non-2xx or 3xx responses: (\d+)/);
  const errors = out.match(/Socket errors: (.*)/)?.[1] ?? "none";
  return { requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/), p99Ms, requests, non2xx, errors };
}

export const fmt = (wrkResult) =>
  `${Math.round(wrkResult.requestsPerSecond).toLocaleString("en-US")} req/s, p99 ${wrkResult.p99Ms.toFixed(1)} ms` +
  (wrkResult.non2xx ? `, ${wrkResult.non2xx} non-2xx` : "") +
  (wrkResult.errors !== "none" ? `, socket errors: ${wrkResult.errors}` : "");
