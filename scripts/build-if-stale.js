// Builds the app when there is no build yet or a source file is newer than it, so `npm start` and the
// end-to-end tests never run old code. Shared by server.js and tests/support/e2e-global-setup.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const serverEntry = path.join(root, "build/server/index.js");
const SOURCES = ["app", "server", "package-lock.json", "vite.config.ts", "react-router.config.ts"];

export function buildIsMissingOrStale() {
  if (!fs.existsSync(serverEntry)) return true;
  const builtAt = fs.statSync(serverEntry).mtimeMs;
  const newerThanBuild = (entry) => {
    const stat = fs.statSync(entry, { throwIfNoEntry: false });
    if (!stat) return false;
    if (!stat.isDirectory()) return stat.mtimeMs > builtAt;
    return fs.readdirSync(entry).some((name) => newerThanBuild(path.join(entry, name)));
  };
  return SOURCES.some((source) => newerThanBuild(path.join(root, source)));
}

/**
 * Returns true when the build is fresh (already, or after building); false when the build failed. Says so in
 * two lines; the build's own output (every asset and its size) is shown only when it fails.
 */
export function buildIfStale() {
  if (!buildIsMissingOrStale()) return true;
  console.log("Building the app (first start, or the sources changed since the last build)...");
  const started = Date.now();
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    // A production build even when started from a test runner (NODE_ENV=test) or a dev shell.
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
    console.error("The build failed (its output is above).");
    return false;
  }
  console.log(`Built in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  return true;
}
