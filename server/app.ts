import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { createRequestHandler as createCoreRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { loadConfig, type AppConfig } from "~/config.server";
import { isCrossSiteWrite } from "~/modules/http/origin.server";
import { createRequestOrigin } from "~/modules/http/request-origin.server";
import { createLogger } from "~/modules/logging/logger.server";
import { PitchPageCache } from "~/modules/pitch/page-cache.server";
import { createPitchPageServing } from "./pitch-page";
import { precompressedAssets } from "./precompressed-assets";
import { startServices, stopServices } from "~/services.server";
import { healthCheck } from "./health";
import { appContext, assignRequestContext, type Locals } from "./request-context";
import {
  cachedPageContentSecurityPolicy,
  contentSecurityPolicyWithNonce,
  headersSetBy,
  privateUnlessMarkedPublic,
  refusalsCarryTheirHeaders,
  securityHeaders,
} from "./response-policy";
import { startupReport } from "./startup-report";
import { requestGuard, withGuardedBody } from "./request-guard";
import { createRouterRequestHandler } from "./router-request";
import { trackScanEndpoint } from "./track-scan";
import { deckReadingEndpoint } from "./deck-reading";
import { DECK_READING_PATH } from "~/modules/deck-reading/reading-rules";

export { loadConfig };
export { migrateToPostgresCommand } from "./migrate-to-postgres";
export { copyFilesToS3Command } from "./copy-files-to-s3";
export { prerenderDemoDeck } from "~/modules/demo/demo-deck.server";

export type AppOptions = {
  /** Vite's dev middlewares, when running `npm run dev`. */
  devMiddlewares?: RequestHandler;
  /** The client build folder to serve static files from (production). */
  clientDir?: string;
  /** Lets server.js close keep-alive connections promptly while shutting down. */
  isShuttingDown?: () => boolean;
  /** Configuration server.js already loaded (to bind the port first); loaded here otherwise. */
  config?: AppConfig;
};

export async function createApp(options: AppOptions = {}) {
  const config = options.config ?? loadConfig();
  const logger = createLogger(config.logLevel);
  const services = await startServices(config, logger);
  const app = express();

  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  const requestOrigin = createRequestOrigin({
    configuredPublicOrigin: config.publicUrlSource === "environment" ? config.publicOrigin : undefined,
    trusts: app.get("trust proxy fn") as (address: string, hop: number) => boolean,
    warn: (message, details) => logger.warn(details, message),
  });
  const originOf = (req: express.Request) =>
    requestOrigin({ encrypted: "encrypted" in req.socket && req.socket.encrypted === true, remoteAddress: req.socket.remoteAddress, headers: req.headers });
  // A post is same-origin when it comes from the request's origin, PUBLIC_URL, or the browser's own scheme and Host
  // (a second address of the app, a LAN address at a booth): whichever origin the proxy's headers make the request's.
  const sameOrigins = (req: express.Request) => [
    originOf(req),
    config.publicOrigin,
    `${"encrypted" in req.socket && req.socket.encrypted === true ? "https" : "http"}://${req.headers.host ?? ""}`,
  ];
  // React Router repeats the check against `request.url`: a post that passed ours is at the origin it came from.
  const routerOriginOf = (req: express.Request) => {
    const origin = req.get("origin");
    return origin && sameOrigins(req).includes(origin) ? origin : originOf(req);
  };
  app.use(assignRequestContext(logger, config.ipv6LimitPrefix, options.isShuttingDown));
  app.use(refusalsCarryTheirHeaders());
  app.use(privateUnlessMarkedPublic());
  app.use(securityHeaders(config));
  app.use(requestGuard(originOf));

  // The anonymous pitch page is answered from memory ahead of Express (see `handle` below).
  const routers = routerHandlers(config, routerOriginOf, (locals) =>
    appContext({ services, logger: locals.logger, requestId: locals.requestId, cspNonce: locals.cspNonce }),
  );
  const renderAnonymously = async (request: Request, context: RouterContextProvider) => (await routers()).renderAnonymously(request, context);
  const pitchCache = new PitchPageCache(services.database.db, (slug) =>
    renderAnonymously(
      new Request(`${config.publicUrl}/pitch/${encodeURIComponent(slug)}`, { headers: { accept: "text/html" } }),
      appContext({ services, logger, requestId: "page-cache", cspNonce: "", sharedDocument: true }),
    ),
  );
  const pitchPages = createPitchPageServing({
    db: services.database.db,
    cache: pitchCache,
    door: services.pageDoor,
    scans: services.scans,
    recentLoads: services.recentPageLoads,
    auth: services.auth,
    logger,
    securityHeaders: headersSetBy(securityHeaders(config)),
    contentSecurityPolicy: cachedPageContentSecurityPolicy(config),
    trustProxy: app.get("trust proxy fn") as (address: string, hop: number) => boolean,
    ipv6LimitPrefix: config.ipv6LimitPrefix,
    isShuttingDown: options.isShuttingDown,
  });

  app.use(contentSecurityPolicyWithNonce(config));
  app.use(compression());

  if (options.devMiddlewares) app.use(options.devMiddlewares);
  if (options.clientDir) {
    app.use("/assets", precompressedAssets(path.join(options.clientDir, "assets")));
    app.use("/assets", express.static(path.join(options.clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use("/assets", (_req, res) => void res.status(404).type("text/plain").send("Not found"));
    app.use(express.static(options.clientDir, { maxAge: "1h", index: false }));
  }

  app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon.svg"));

  const health = healthCheck(services);
  app.get("/healthz", health.handler);

  app.use(refuseCrossSiteWrites(sameOrigins));
  app.post("/api/functions/track-scan", ...trackScanEndpoint(services));
  app.post(DECK_READING_PATH, ...deckReadingEndpoint(services));
  app.get("/pitch/:slug", pitchPages.countRenderedLoad);

  // Express 5 passes a rejected promise (a build that would not load) to the error handler.
  app.all("/{*path}", (req, res, next) => routers().then((handlers) => handlers.handleWithRouter(withGuardedBody(req), res, next)));

  app.use(unexpectedError);

  // Under `npm run dev` every page is rendered afresh.
  const serveFromCache = config.env === "development" ? null : pitchPages.serveFromCache;
  /** The HTTP server's request listener: cached pitch pages first, everything else through Express. */
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (!serveFromCache) return void app(req, res);
    serveFromCache(req, res).then(
      (served) => {
        if (!served) app(req, res);
      },
      (error: unknown) => {
        logger.error({ err: error, path: req.url }, "cached pitch page failed: rendering it instead");
        if (!res.headersSent) app(req, res);
      },
    );
  };

  return {
    app,
    handle,
    config,
    logger,
    /** Plain lines for the console: what start-up did, where the database and the mail are. */
    startupLines: startupReport(config, services.startup),
    /** Ends long-lived responses (live wall streams) so in-flight requests can finish and the server close. */
    beginShutdown: () => services.streams.closeAll(),
    close: () => {
      health.stop();
      return stopServices(services);
    },
  };
}

/**
 * React Router's two request handlers (Express's, and the page cache's renderer of anonymous pages), made on first
 * use so that start-up does not wait for the server build. Each is handed the build itself, not a function returning
 * it: given a function, React Router derives its route tables (every route flattened, ranked and compiled) again on
 * each request (decision 74). Only under Vite (`npm run dev`), where the build changes as files do, is it a function.
 */
function routerHandlers(config: AppConfig, originOf: (req: express.Request) => string, loadContext: (locals: Locals) => RouterContextProvider) {
  const loadBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
  const development = config.env === "development";
  let made: Promise<{ handleWithRouter: RequestHandler; renderAnonymously: (request: Request, context: RouterContextProvider) => Promise<Response> }> | undefined;
  return () =>
    (made ??= (async () => {
      const build = development ? loadBuild : await loadBuild();
      return {
        handleWithRouter: createRouterRequestHandler({
          build,
          mode: development ? "development" : "production",
          originOf,
          loadContext: (_req, res) => loadContext(res.locals as Locals),
        }),
        renderAnonymously: createCoreRequestHandler(build, development ? "development" : "production"),
      };
    })());
}

function refuseCrossSiteWrites(sameOrigins: (req: express.Request) => string[]): RequestHandler {
  return (req, res, next) => {
    // RFC 8058: mail providers POST the List-Unsubscribe link from their own servers, with any Origin. The signed
    // token is the authority there, and a cross-site POST with it can do no more than following the link does.
    if (req.path === "/unsubscribe/one-click") return next();
    const [requestOrigin = "", ...alsoSameOrigin] = sameOrigins(req);
    const refused = isCrossSiteWrite(
      { method: req.method, origin: req.get("origin"), secFetchSite: req.get("sec-fetch-site"), requestOrigin },
      alsoSameOrigin,
    );
    if (!refused) return next();
    (res.locals as Locals).logger.warn({ origin: req.get("origin"), path: req.path }, "cross-site write refused");
    const message = "Cross-site request refused";
    if (req.path.startsWith("/api/")) res.status(403).json({ error: message });
    else res.status(403).type("text/plain").send(message);
  };
}

const unexpectedError: ErrorRequestHandler = (error, _req, res, _next) => {
  const locals = res.locals as Locals;
  // Express and its parsers mark the client's own mistakes (a malformed path, say) with a 4xx status.
  const status = (error as { status?: unknown }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    locals.logger?.info({ err: error, status }, "request refused");
    if (!res.headersSent) res.status(status).type("text/plain").send("Bad request");
    return;
  }
  locals.logger?.error({ err: error }, "unhandled error");
  if (res.headersSent) return;
  res.status(500).type("text/plain").send("Something went wrong. Please try again.");
};
