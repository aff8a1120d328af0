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

/** Returns true when the build is fresh (already, or after building); false when the build failed. */
export function buildIfStale() {
  if (!buildIsMissingOrStale()) return true;
  console.log("Building the app (no build yet, or sources changed since the last one)...");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"], {
    cwd: root,
    stdio: "inherit",
    // A production build even when started from a test runner (NODE_ENV=test) or a dev shell.
    env: { ...process.env, NODE_ENV: "production" },
  });
  return result.status === 0;
}
