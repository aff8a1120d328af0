// `npm run bench`: builds the app, then runs each benchmark in bench/ and prints its figures.
// Figures are printed, never asserted: speed targets live here, not in the test suites.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const only = process.argv.slice(2);
const benchmarks = ["startup", "client-size", "pitch-page", "track-scan", "booth", "wall-fan-out", "instances", "founder-analytics", "lead-inbox", "founder-push", "mail", "send-now", "deck", "deck-reading", "lighthouse"].filter((name) => only.length === 0 || only.includes(name));

const build = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"], { cwd: root, stdio: "ignore" });
if (build.status !== 0) {
  console.error("build failed: run `npm run build` to see why");
  process.exit(1);
}

for (const name of benchmarks) {
  const { default: run } = await import(path.join(root, "bench", `${name}.js`));
  const figures = await run();
  console.log(`\n## ${name}`);
  for (const [label, value] of Object.entries(figures)) console.log(`  ${label}: ${value}`);
}
