// `npm test`: every suite, in the order that fails fastest. Unit tests (no database), then the integration
// tests on SQLite and PostgreSQL, a production build, and the end-to-end tests in Chromium and the hardening
// suite against that build. PostgreSQL is the server at TEST_POSTGRES_URL (or 127.0.0.1:5432) when it
// answers, else a disposable embedded one started here for the run and deleted at its end (decision 21).
// Then the concurrency tests (several instances of the build on one PostgreSQL).
// Ends with one summary line, "tests: N passed, N failed".
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_TEST_POSTGRES_URL, redactPassword, resolveTestPostgres } from "../tests/support/test-postgres.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-test-reports-"));
const bin = (pkg, file) => path.join(root, "node_modules", pkg, file);
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Each suite's wall time and its slowest files, printed at the end so a slow change shows where it went. */
const timings = [];
const env = { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" };
let failedStep = null;
let runningChild = null;
let postgres = null;

function run(label, args) {
  console.log(`\n=== ${label} ===`);
  return new Promise((resolve) => {
    runningChild = spawn(process.execPath, args, { cwd: root, stdio: "inherit", env });
    runningChild.on("exit", (code) => {
      runningChild = null;
      resolve(code === 0);
    });
  });
}

async function runSuites(label, projects, reportName) {
  const report = path.join(reports, `${reportName}.json`);
  const started = Date.now();
  const ok = await run(label, [
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
    timings.push({ label, seconds: (Date.now() - started) / 1000, files: fileDurations(summary) });
  }
  if (!ok) failedStep ??= label;
  return ok;
}

function fileDurations(summary) {
  return (summary.testResults ?? [])
    .map((file) => ({ name: path.relative(root, file.name), seconds: (file.endTime - file.startTime) / 1000 }))
    .filter((file) => Number.isFinite(file.seconds))
    .sort((a, b) => b.seconds - a.seconds);
}

function printTimings() {
  if (!timings.length) return;
  console.log("\n=== how long each suite took, and its slowest files ===");
  for (const suite of timings) {
    console.log(`${suite.label}: ${suite.seconds.toFixed(0)} s`);
    for (const file of suite.files.slice(0, 8)) console.log(`  ${file.seconds.toFixed(1).padStart(7)} s  ${file.name}`);
  }
}

async function startPostgres() {
  console.log("\n=== PostgreSQL ===");
  const wanted = process.env.TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL;
  try {
    postgres = await resolveTestPostgres(wanted);
  } catch (error) {
    console.error(error.message);
    failedStep = "PostgreSQL";
    return false;
  }
  console.log(
    postgres.embedded
      ? `nothing answers at ${redactPassword(wanted)}: using an embedded PostgreSQL for this run (${redactPassword(postgres.url)}, data in ${postgres.dataDir})`
      : `using ${redactPassword(postgres.url)}`,
  );
  env.TEST_POSTGRES_URL = postgres.url;
  return true;
}

async function finish(exitCode) {
  await postgres?.stop();
  fs.rmSync(reports, { recursive: true, force: true });
  process.exit(exitCode);
}

// Ctrl-C or a CI timeout: end the suite that is running and delete the embedded server's data.
for (const [signal, exitCode] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]]) {
  process.on(signal, () => {
    runningChild?.kill(signal);
    void finish(exitCode);
  });
}

if (
  (await runSuites("unit tests", ["unit"], "unit")) &&
  (await startPostgres()) &&
  (await runSuites("integration tests (SQLite and PostgreSQL)", ["integration"], "integration"))
) {
  if (await run("production build", [bin("@react-router/dev", "bin.js"), "build"])) {
    await runSuites("end-to-end and hardening tests (Chromium, the built app)", ["e2e", "hardening"], "e2e");
    await runSuites("concurrency tests (several instances of the built app on one database)", ["concurrency"], "concurrency");
  } else {
    failedStep = "production build";
  }
}

printTimings();
console.log("");
if (failedStep) console.log(`failed at: ${failedStep}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
await finish(failedStep ? 1 : 0);
