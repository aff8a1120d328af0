import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { build, defineConfig, type Plugin } from "vite";
import { deckWorkerBuild } from "./scripts/deck-worker-build";

const ENHANCE_ENTRY = "app/pitch-client/enhance.ts";
const SERVICE_WORKER_ENTRY = "app/pitch-client/service-worker.ts";
const QR_CODE_ENTRY = "app/pitch-client/qr-code.ts";
const DECK_READER_ENTRY = "app/browser/deck-reader.ts";
/** `/saved`'s stylesheet: the pitch page's, with the saved list's classes (decision 46). */
const SAVED_STYLES_ENTRY = "app/pitch-client/saved.css";
/**
 * The saved list's client: `/saved`'s list and the pitch page's Save once tapped, imported by address.
 * Built on its own, like the React app, so it shares no chunk with the enhancement module (which stays one script).
 */
const SAVED_LIST_ENTRY = "app/pitch-client/saved-list-client.ts";
const SAVED_LIST_MANIFEST = ".vite/pitch-saved-manifest.json";
/** A stable address: a service worker is updated in place, never renamed (decision 13). */
const SERVICE_WORKER_FILE = "pitch-sw.js";
const CLIENT_BUILD_DIR = "build/client";
const PITCH_CLIENT_MANIFEST = ".vite/pitch-client-manifest.json";
const ASSETS_MODULE = "virtual:pitch-client-assets";

const brotliCompress = promisify(zlib.brotliCompress);

/**
 * Each hashed script and stylesheet, written beside itself brotli-compressed at the highest quality, once:
 * the server sends these as they are (decision 46) instead of compressing on every request at a lower quality.
 */
async function precompressAssets(dir: string) {
  const files = fs.readdirSync(dir).filter((name) => /\.(js|css)$/.test(name));
  await Promise.all(
    files.map(async (name) => {
      const source = fs.readFileSync(path.join(dir, name));
      const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length };
      fs.writeFileSync(path.join(dir, `${name}.br`), await brotliCompress(source, { params }));
    }),
  );
}

/**
 * The anonymous pitch page's own client (decision 13). After React Router's client build, a separate Vite
 * build of its own emits the enhancement module (hashed, with its pitch-only stylesheet) and the service
 * worker (fixed name) into the same folder: built apart, they share no chunk with the React app, so the
 * page loads one script. The server build then reads their addresses, and the stylesheet's text to
 * inline, from that build's manifest through `virtual:pitch-client-assets`.
 */
function pitchClient(): Plugin {
  let root = process.cwd();
  let serving = false;
  return {
    name: "pitchqr:pitch-client",
    configResolved(config) {
      root = config.root;
      serving = config.command === "serve";
    },
    async closeBundle() {
      if (serving || this.environment.name !== "client") return;
      await build({
        configFile: false,
        root,
        logLevel: "warn",
        resolve: { alias: { "~": path.resolve(root, "app") } },
        plugins: [tailwindcss()],
        build: {
          outDir: CLIENT_BUILD_DIR,
          emptyOutDir: false,
          copyPublicDir: false,
          manifest: PITCH_CLIENT_MANIFEST,
          rollupOptions: {
            // The QR code drawer and the deck reader are imported by address: their exports must survive.
            preserveEntrySignatures: "exports-only",
            input: {
              "pitch-enhance": path.resolve(root, ENHANCE_ENTRY),
              "pitch-qr-code": path.resolve(root, QR_CODE_ENTRY),
              "pitch-deck-reader": path.resolve(root, DECK_READER_ENTRY),
              "pitch-sw": path.resolve(root, SERVICE_WORKER_ENTRY),
              "pitch-saved-styles": path.resolve(root, SAVED_STYLES_ENTRY),
            },
            output: { entryFileNames: (chunk) => (chunk.name === "pitch-sw" ? SERVICE_WORKER_FILE : "assets/[name]-[hash].js") },
          },
        },
      });
      await build({
        configFile: false,
        root,
        logLevel: "warn",
        resolve: { alias: { "~": path.resolve(root, "app") } },
        build: {
          outDir: CLIENT_BUILD_DIR,
          emptyOutDir: false,
          copyPublicDir: false,
          manifest: SAVED_LIST_MANIFEST,
          rollupOptions: {
            preserveEntrySignatures: "exports-only",
            input: { "pitch-saved": path.resolve(root, SAVED_LIST_ENTRY) },
            output: { entryFileNames: "assets/[name]-[hash].js" },
          },
        },
      });
      await precompressAssets(path.resolve(root, CLIENT_BUILD_DIR, "assets"));
    },
    resolveId(id) {
      return id === ASSETS_MODULE ? `\0${ASSETS_MODULE}` : undefined;
    },
    load(id) {
      if (id !== `\0${ASSETS_MODULE}`) return undefined;
      if (this.environment.name === "client") this.error(`${ASSETS_MODULE} is for the server only`);
      // `npm run dev` renders every page with React (no page cache), so these are never used there.
      if (serving) {
        return `export const enhanceScript = "/${ENHANCE_ENTRY}"; export const qrCodeScript = "/${QR_CODE_ENTRY}"; export const deckReaderScript = "/${DECK_READER_ENTRY}"; export const savedListScript = "/${SAVED_LIST_ENTRY}"; export const pitchStyles = ""; export const savedStyles = ""; export const serviceWorkerScript = "/${SERVICE_WORKER_FILE}";`;
      }
      const clientDir = path.resolve(root, CLIENT_BUILD_DIR);
      const manifest = JSON.parse(fs.readFileSync(path.join(clientDir, PITCH_CLIENT_MANIFEST), "utf8")) as Record<string, { file: string; css?: string[] }>;
      const entry = manifest[ENHANCE_ENTRY];
      const qrCode = manifest[QR_CODE_ENTRY];
      const deckReader = manifest[DECK_READER_ENTRY];
      const savedStyles = manifest[SAVED_STYLES_ENTRY];
      const savedList = (JSON.parse(fs.readFileSync(path.join(clientDir, SAVED_LIST_MANIFEST), "utf8")) as Record<string, { file: string }>)[SAVED_LIST_ENTRY];
      if (!entry || !qrCode || !deckReader || !savedList || !savedStyles) {
        this.error(`${ENHANCE_ENTRY}, ${QR_CODE_ENTRY}, ${DECK_READER_ENTRY}, ${SAVED_LIST_ENTRY} or ${SAVED_STYLES_ENTRY} is missing from the pitch client's manifests`);
      }
      const read = (file: string) => fs.readFileSync(path.join(clientDir, file), "utf8");
      return [
        `export const enhanceScript = ${JSON.stringify(`/${entry.file}`)};`,
        `export const qrCodeScript = ${JSON.stringify(`/${qrCode.file}`)};`,
        `export const deckReaderScript = ${JSON.stringify(`/${deckReader.file}`)};`,
        `export const savedListScript = ${JSON.stringify(`/${savedList.file}`)};`,
        `export const pitchStyles = ${JSON.stringify((entry.css ?? []).map(read).join("\n"))};`,
        `export const savedStyles = ${JSON.stringify(read(savedStyles.file))};`,
        `export const serviceWorkerScript = ${JSON.stringify(`/${SERVICE_WORKER_FILE}`)};`,
      ].join("\n");
    },
  };
}

/**
 * The worker thread that renders decks, built beside the server build once it is written; then the demo project's
 * deck, drawn by that worker into `build/server/demo-deck/` (by the built server's own code, in a process of its own).
 */
function deckWorker(): Plugin {
  let root = process.cwd();
  let serving = false;
  return {
    name: "pitchqr:deck-worker",
    configResolved(config) {
      root = config.root;
      serving = config.command === "serve";
    },
    async closeBundle() {
      if (serving || this.environment.name !== "ssr") return;
      await build(deckWorkerBuild(root, "build/server"));
      fs.rmSync(path.resolve(root, "build/server/demo-deck"), { recursive: true, force: true });
      const drawn = spawnSync(process.execPath, [path.resolve(root, "scripts/prerender-demo-deck.js")], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
      if (drawn.status !== 0) this.error("the demo project's deck could not be drawn");
    },
  };
}

export default defineConfig({
  // The server build's entry is the Express app, which imports React Router's server build.
  environments: { ssr: { build: { rollupOptions: { input: "./server/app.ts" } } } },
  // Bundled into the server build rather than loaded from node_modules at start-up (decision 68): lucide-react's
  // CommonJS build is 1.3 MB of every icon, better-auth loads far more than the app calls. 1.84 s → 1.34 s a start.
  ssr: { noExternal: ["lucide-react", "better-auth", /^@better-auth\//, "better-call"] },
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  plugins: [tailwindcss(), reactRouter(), pitchClient(), deckWorker()],
});
