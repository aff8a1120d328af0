// `npm test`: every suite, in the order that fails fastest. Unit and integration tests (on SQLite and on
// PostgreSQL), then a production build, then the end-to-end tests in Chromium and the hardening suite against that build.
// Ends with one summary line, "tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-test-reports-"));
const bin = (pkg, file) => path.join(root, "node_modules", pkg, file);
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedStep = null;

function run(label, args) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" } });
  return result.status === 0;
}

function runSuites(label, projects, reportName) {
  const report = path.join(reports, `${reportName}.json`);
  const ok = run(label, [
    bin("vitest", "vitest.mjs"),
    "run",
    ...projects.flatMap((project) => ["--project", project]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ]);
  if (fs.existsSync(report)) {
    const summary = JSON.parse(fs.readFileSync(report, "utf8"));
    totals.passed += summary.numPassedTests ?? 0;
    totals.failed += summary.numFailedTests ?? 0;
    totals.skipped += (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0);
  }
  if (!ok) failedStep ??= label;
  return ok;
}

if (runSuites("unit and integration tests (SQLite and PostgreSQL)", ["unit", "integration"], "unit")) {
  if (run("production build", [bin("@react-router/dev", "bin.js"), "build"])) {
    runSuites("end-to-end and hardening tests (Chromium, the built app)", ["e2e", "hardening"], "e2e");
  } else {
    failedStep = "production build";
  }
}

fs.rmSync(reports, { recursive: true, force: true });
console.log("");
if (failedStep) console.log(`failed at: ${failedStep}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(failedStep ? 1 : 0);
