import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export type AppServer = {
  url: string;
  port: number;
  dataDir: string;
  /** The server process's id, to read its memory from /proc. */
  pid: number;
  /** Every line the server printed (JSON logs), for assertions and for failure messages. */
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

const ROOT = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built app (`node server.js`, as `npm start` does) on a free port with its own data directory (or on
 * the port and data directory of an app stopped before, to restart it).
 * TRUST_PROXY=loopback lets a test speak for distinct clients through X-Forwarded-For, as a real proxy would.
 */
export async function startAppServer(options: { env?: Record<string, string>; dataDir?: string; port?: number } = {}): Promise<AppServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-e2e-"));
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    TRUST_PROXY: "loopback",
    LOG_LEVEL: "info",
    ...options.env,
  };
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;

  const child = spawn(process.execPath, ["server.js"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const logs: string[] = [];
  // Whole lines only: a chunk can end mid-line (or mid-character), so the unfinished tail waits for the next one.
  const collect = (stream: NodeJS.ReadableStream | null) => {
    if (!stream) return;
    let partial = "";
    stream.setEncoding("utf8");
    stream.on("data", (text: string) => {
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      logs.push(...lines.filter(Boolean));
    });
    stream.on("end", () => {
      if (partial) logs.push(partial);
      partial = "";
    });
  };
  collect(child.stdout);
  collect(child.stderr);
  // "close", not "exit": only then has everything the process printed (its last log lines) been read.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));

  await waitForHealthy(url, child, logs);
  return {
    url,
    port,
    dataDir,
    pid: child.pid!,
    logs,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

async function waitForHealthy(url: string, child: ChildProcess, logs: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`app exited with ${child.exitCode}:\n${logs.join("\n")}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`app did not become healthy within 60 s:\n${logs.join("\n")}`);
}
