// `npm test`: every suite, in the order that fails fastest. Unit tests (no database), then the integration
// tests on SQLite and PostgreSQL, while a production build is made beside them (it needs neither, and they leave
// one of the two cores mostly idle); then the end-to-end tests in Chromium, the hardening suite and the
// concurrency tests (several instances of the build on one PostgreSQL), all against that build, in one pool of
// workers, longest file first. PostgreSQL is the server at TEST_POSTGRES_URL (or 127.0.0.1:5432) when it
// answers, else a disposable embedded one started here for the run and deleted at its end (decision 21).
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
const env = { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" };
let failedStep = null;
const runningChildren = new Set();
let postgres = null;

function run(label, args) {
  console.log(`\n=== ${label} ===`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit", env });
    runningChildren.add(child);
    child.on("exit", (code) => {
      runningChildren.delete(child);
      resolve(code === 0);
    });
  });
}

/**
 * Starts the production build in the background, its output kept (and shown only if it fails, as `npm start`
 * does); `result` resolves when it ends, `cancel` ends it early (an earlier suite failed).
 */
function startBuild() {
  const started = Date.now();
  let output = "";
  const child = spawn(process.execPath, [bin("@react-router/dev", "bin.js"), "build"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...env, NODE_ENV: "production", FORCE_COLOR: "0" },
  });
  runningChildren.add(child);
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const result = new Promise((resolve) => {
    child.on("close", (code) => {
      runningChildren.delete(child);
      resolve({ ok: code === 0, seconds: Math.round((Date.now() - started) / 1000), output });
    });
  });
  return { result, cancel: () => child.kill("SIGTERM") };
}

async function runSuites(label, projects, reportName) {
  const report = path.join(reports, `${reportName}.json`);
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
  }
  if (!ok) failedStep ??= label;
  return ok;
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

// Ctrl-C or a CI timeout: end the suites and the build that are running and delete the embedded server's data.
for (const [signal, exitCode] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]]) {
  process.on(signal, () => {
    for (const child of runningChildren) child.kill(signal);
    void finish(exitCode);
  });
}

const build = startBuild();
if (
  (await runSuites("unit tests", ["unit"], "unit")) &&
  (await startPostgres()) &&
  (await runSuites("integration tests (SQLite and PostgreSQL)", ["integration"], "integration"))
) {
  console.log("\n=== production build ===");
  const built = await build.result;
  if (built.ok) {
    console.log(`built in ${built.seconds} s, beside the unit and integration tests`);
    await runSuites(
      "end-to-end, hardening and concurrency tests (Chromium; the built app, also several instances on one database)",
      ["e2e", "hardening", "concurrency"],
      "e2e",
    );
  } else {
    process.stdout.write(built.output);
    failedStep = "production build";
  }
} else {
  build.cancel();
  await build.result;
}

console.log("");
if (failedStep) console.log(`failed at: ${failedStep}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
await finish(failedStep ? 1 : 0);
