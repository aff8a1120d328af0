import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../support/app-server";

const ROOT = path.resolve(import.meta.dirname, "../..");

type Started = { lines: string[]; exited: Promise<number | null>; stop(): void; untilLine(match: RegExp): Promise<string[]> };

/** `node server.js` as `npm start` runs it, with the default settings and a fresh data folder (the build exists: e2e global setup). */
function startServer(port: number, dataDir: string): Started {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "production" };
  for (const name of ["DATABASE_URL", "SMTP_URL", "PUBLIC_URL", "LOG_LEVEL", "AUTH_SECRET"]) delete env[name];
  const child = spawn(process.execPath, ["server.js"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiting: Array<{ match: RegExp; resolve: (lines: string[]) => void }> = [];
  let partial = "";
  const collect = (text: string) => {
    const parts = (partial + text).split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
    for (const wait of waiting.filter((candidate) => lines.some((line) => candidate.match.test(line)))) wait.resolve(lines);
  };
  child.stdout.setEncoding("utf8").on("data", collect);
  child.stderr.setEncoding("utf8").on("data", collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => {
      if (partial) lines.push(partial);
      resolve(code);
    }),
  );
  return {
    lines,
    exited,
    stop: () => void (child.exitCode === null && child.kill("SIGTERM")),
    untilLine: (match) =>
      new Promise((resolve, reject) => {
        waiting.push({ match, resolve });
        void exited.then((code) => reject(new Error(`server exited (${code}) before printing ${match}:\n${lines.join("\n")}`)));
      }),
  };
}

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function freshDataDir() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-start-"));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

describe("npm start", () => {
  it("says in a few plain lines what it did, where mail goes and where it listens, with no warnings", async () => {
    const port = await freePort();
    const dataDir = freshDataDir();
    const server = startServer(port, dataDir);
    cleanups.push(() => {
      server.stop();
      return server.exited;
    });

    const lines = await server.untilLine(/^Listening on /);
    const untilListening = lines.slice(0, lines.findIndex((line) => line.startsWith("Listening on ")) + 1);
    expect(untilListening.length).toBeLessThanOrEqual(8);
    expect(untilListening.at(-1)).toBe(`Listening on http://localhost:${port}`);
    // Without SMTP_URL the mail line says mail reaches nobody, where it is kept, and how to send it.
    const mailLines = untilListening.filter((line) => line.startsWith(`Mail is kept as .eml files in ${path.join(dataDir, "mail")}/`));
    expect(mailLines).toHaveLength(1);
    expect(mailLines[0]).toMatch(/reaches nobody\. To send it, set SMTP_URL .* and MAIL_FROM /);
    expect(untilListening).toContain(`Demo project seeded: http://localhost:${port}/pitch/demo-project`);
    // The default address is the local one, so the founder is told that printed codes will not open (never silently).
    expect(untilListening.filter((line) => line.startsWith(`QR codes point to http://localhost:${port}, an address that only opens on this computer.`))).toHaveLength(1);
    expect(untilListening.join("\n")).not.toMatch(/deprecat|future|warn|error/i);
    // Plain lines for a person, not JSON log records.
    expect(untilListening.filter((line) => line.startsWith("{"))).toEqual([]);

    // And it serves.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });

  it("reports a busy port as its only message and exits non-zero, without claiming to listen", async () => {
    const port = await freePort();
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(port, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => other.close(resolve)));

    const server = startServer(port, freshDataDir());
    const code = await server.exited;

    expect(code).not.toBe(0);
    expect(server.lines.filter(Boolean)).toEqual([`Port ${port} is in use: stop the other server or set PORT.`]);
  });
});
