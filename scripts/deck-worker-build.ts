import path from "node:path";
import type { InlineConfig } from "vite";

export const DECK_WORKER_ENTRY = "app/modules/deck/render-worker.server.ts";
/** Where the app starts the deck renderer's worker thread from: beside the server build's entry. */
export const DECK_WORKER_FILE = "deck-render-worker.js";

/**
 * The Vite build of the worker thread that renders decks, a file of its own (a worker is started from a file, and
 * React Router's server build has one entry). Its packages (pdf.js, sharp, the canvas) stay in node_modules. Used by
 * the app's build (into build/server) and by the tests that start the worker without a whole build.
 */
export function deckWorkerBuild(root: string, outDir: string): InlineConfig {
  return {
    configFile: false,
    root,
    logLevel: "warn",
    resolve: { alias: { "~": path.resolve(root, "app") } },
    build: {
      ssr: path.resolve(root, DECK_WORKER_ENTRY),
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: DECK_WORKER_FILE } },
    },
  };
}
