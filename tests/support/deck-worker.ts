import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "vite";
import { DECK_WORKER_FILE, deckWorkerBuild } from "../../scripts/deck-worker-build";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The deck renderer's worker thread built as the app builds it, into a folder of its own under node_modules/.cache
 * (inside the project, so the worker finds its packages as the built app's does): its file and a cleanup.
 */
export async function buildDeckWorker(): Promise<{ file: URL; remove: () => void }> {
  const cache = path.join(root, "node_modules/.cache");
  fs.mkdirSync(cache, { recursive: true });
  const outDir = fs.mkdtempSync(path.join(cache, "deck-worker-"));
  await build(deckWorkerBuild(root, outDir));
  return { file: pathToFileURL(path.join(outDir, DECK_WORKER_FILE)), remove: () => fs.rmSync(outDir, { recursive: true, force: true }) };
}
