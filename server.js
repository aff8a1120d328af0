// Process entry for `npm start` (and `npm run dev`): builds if needed, then serves the app and
// shuts down gracefully. Everything else lives in server/app.ts, bundled with the app by Vite.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dev = process.argv.includes("--dev");
process.env.NODE_ENV ??= dev ? "development" : "production";

const root = path.dirname(fileURLToPath(import.meta.url));
const serverEntry = path.join(root, "build/server/index.js");
const clientDir = path.join(root, "build/client");

let shuttingDown = false;
const options = { isShuttingDown: () => shuttingDown };
let createApp;

if (dev) {
  const vite = await import("vite");
  const viteServer = await vite.createServer({ server: { middlewareMode: true } });
  ({ createApp } = await viteServer.ssrLoadModule("./server/app.ts"));
  options.devMiddlewares = viteServer.middlewares;
} else {
  const { buildIfStale } = await import("./scripts/build-if-stale.js");
  if (!buildIfStale()) process.exit(1);
  ({ createApp } = await import(serverEntry));
  options.clientDir = clientDir;
}

const { handle, config, logger, beginShutdown, close } = await createApp(options);
const server = http.createServer(handle);
server.listen(config.port, config.host, () => {
  logger.info({ url: config.publicUrl, port: config.port, database: config.database.dialect }, "listening");
});
server.on("error", (error) => {
  logger.fatal({ err: error }, "server failed to start");
  process.exit(1);
});

async function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, "shutting down: no new connections, finishing requests in flight");
  const forced = setTimeout(() => {
    logger.warn("requests still open after 10 s: closing them");
    server.closeAllConnections();
  }, 10_000);
  forced.unref();
  beginShutdown();
  server.close(async () => {
    await close();
    logger.info("stopped");
    process.exit(0);
  });
  server.closeIdleConnections();
}

process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
