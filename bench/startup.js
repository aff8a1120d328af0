import { spawn } from "node:child_process";
import { freePort, median, startServer } from "./support.js";

/**
 * Cold start: a new process on an empty data directory (migrations and demo seed included) to the first 200 from
 * /healthz; beside it, the reference measured in the same run: a bare Node HTTP server started and asked the same way.
 */
export default async function startup() {
  const runs = [];
  const bare = [];
  for (let i = 0; i < 5; i += 1) {
    const server = await startServer();
    runs.push(server.readyMs);
    await server.stop();
    bare.push(await startBareNodeServer());
  }
  return {
    "cold start to first 200 from /healthz (median of 5, ms)": `${Math.round(median(runs))} (reference, a bare Node server: ${Math.round(median(bare))})`,
    runs: runs.map(Math.round).join(", "),
  };
}

async function startBareNodeServer() {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ["-e", `require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1")`], { stdio: "ignore" });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - started;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  return readyMs;
}
