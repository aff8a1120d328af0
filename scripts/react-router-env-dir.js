// Runs after `npm install` / `npm ci`. @react-router/dev 7 hands its internal Vite servers `envFile: false`,
// which Vite 8.1+ reports as deprecated on every build (each build printed it 9 times). React Router 8 passes
// `envDir: false`, the same setting under its current name (remix-run/react-router#15230), but the 7.x line
// keeps the old one; this rewrites it in the installed copy (decision 21). Drop it on moving to React Router 8.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "node_modules/@react-router/dev/dist");

function scriptsUnder(folder) {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return scriptsUnder(full);
    return /\.(c|m)?js$/.test(entry.name) ? [full] : [];
  });
}

if (fs.existsSync(dist)) {
  for (const file of scriptsUnder(dist)) {
    const source = fs.readFileSync(file, "utf8");
    if (source.includes("envFile: false")) fs.writeFileSync(file, source.replaceAll("envFile: false", "envDir: false"));
  }
}
