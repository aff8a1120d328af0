// Run by the build (vite.config.ts) once the server and the deck worker are built: draws the demo project's deck
// with the built server's own code into build/server/demo-deck/, so a fresh start shows it at once.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { prerenderDemoDeck } = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
await prerenderDemoDeck(pathToFileURL(path.join(root, "build/server/deck-render-worker.js")), path.join(root, "build/server/demo-deck"));
