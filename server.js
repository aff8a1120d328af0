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
let loadConfig;

if (dev) {
  const vite = await import("vite");
  const viteServer = await vite.createServer({ server: { middlewareMode: true } });
  ({ createApp, loadConfig } = await viteServer.ssrLoadModule("./server/app.ts"));
  options.devMiddlewares = viteServer.middlewares;
} else {
  const { buildIfStale } = await import("./scripts/build-if-stale.js");
  if (!buildIfStale()) process.exit(1);
  ({ createApp, loadConfig } = await import(serverEntry));
  options.clientDir = clientDir;
}

// The port is taken before the database is touched, so a busy port is the one thing said (decision 21).
// Until the app is ready, requests are answered 503.
const config = loadConfig();
let handle = null;
const server = http.createServer((req, res) => {
  if (handle) return handle(req, res);
  res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "1" }).end("Starting up");
});
// Slow clients hold a connection (and its socket buffers) while they trickle a request in. Node's defaults let a
// request take 5 minutes. Our largest body is 256 KB (the project form): on a 50 kbit/s mobile link that is about
// 40 s, so a whole request gets 60 s; headers alone are small and get 20 s (the slow-headers attack's bound).
// Neither limits responses: the live wall's event stream stays open as long as it likes.
server.requestTimeout = 60_000;
server.headersTimeout = 20_000;
await new Promise((resolve) => {
  server.once("error", (error) => {
    console.error(
      error.code === "EADDRINUSE"
        ? `Port ${config.port} is in use: stop the other server or set PORT.`
        : `Cannot listen on ${config.host}:${config.port}: ${error.message}`,
    );
    process.exit(1);
  });
  server.listen(config.port, config.host, resolve);
});

const app = await createApp({ ...options, config });
const { logger, beginShutdown, close } = app;
handle = app.handle;
server.on("error", (error) => logger.error({ err: error }, "server error"));
// Start-up lines are for a person reading the console: plain text, unless LOG_LEVEL asks for less than info.
if (logger.isLevelEnabled("info")) {
  for (const line of app.startupLines) console.log(line);
  const localUrl = `http://localhost:${config.port}`;
  console.log(config.publicUrl === localUrl ? `Listening on ${localUrl}` : `Listening on port ${config.port} (${config.host}), public address ${config.publicUrl}`);
}

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
