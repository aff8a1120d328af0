import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import helmet from "helmet";
import { createRequestHandler as createCoreRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { loadConfig, type AppConfig } from "~/config.server";
import { DatabaseUnanswered } from "~/db/postgres-pool.server";
import { hasSessionCookie } from "~/modules/auth/session.server";
import { setClientAddressHeaders } from "~/modules/http/client-ip.server";
import { isCrossSiteWrite } from "~/modules/http/origin.server";
import { createRequestOrigin } from "~/modules/http/request-origin.server";
import { createLogger, type Logger } from "~/modules/logging/logger.server";
import { PitchPageCache, type CachedPitchPage } from "~/modules/pitch/page-cache.server";
import { createPitchPageServing } from "./pitch-page";
import { precompressedAssets } from "./precompressed-assets";
import { startServices, stopServices, type AppServices } from "~/services.server";
import { startupReport } from "./startup-report";
import { requestGuard, withGuardedBody } from "./request-guard";
import { createRouterRequestHandler } from "./router-request";
import { trackScanEndpoint } from "./track-scan";

export { loadConfig };
export { migrateToPostgresCommand } from "./migrate-to-postgres";

// The request context loaders and actions read (`context.services`, ...): with React Router's v8_middleware
// flag it is a RouterContextProvider, and these fields are set on it in `appContext` below.
declare module "react-router" {
  interface RouterContextProvider {
    services: AppServices;
    logger: Logger;
    requestId: string;
    cspNonce: string;
    /** The one anonymous document of a page, rendered for the page cache: no React in the browser (decision 13). */
    sharedDocument?: boolean;
  }
}

type Locals = { requestId: string; logger: Logger; cspNonce: string };

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

  // How long the event loop was held up at worst: a monitor reading it since the last /healthz sees any request
  // or job that froze the server between two polls, which the health check's own answer time would miss.
  const eventLoopDelay = monitorEventLoopDelay({ resolution: 10 });
  eventLoopDelay.enable();
  const takeEventLoopMaxDelayMs = () => {
    const maxMs = Math.round(eventLoopDelay.max / 1e5) / 10;
    eventLoopDelay.reset();
    return maxMs;
  };

  app.get("/healthz", async (_req, res) => {
    try {
      await services.database.ping();
      // A degraded realtime path still serves every page and delivers every wall entry, by polling: still 200.
      res
        .set("Cache-Control", "no-store")
        .json({ status: "ok", realtime: services.events.status(), eventLoopMaxDelayMs: takeEventLoopMaxDelayMs() });
    } catch (error) {
      // Answered within PING_TIMEOUT_MS even when the database's packets are dropped: pages that need it fail too.
      (res.locals as Locals).logger.error({ err: error }, "health check failed");
      res
        .status(503)
        .set("Cache-Control", "no-store")
        .json({
          status: "degraded",
          database: error instanceof DatabaseUnanswered ? "unanswered" : "failing",
          realtime: services.events.status(),
          eventLoopMaxDelayMs: takeEventLoopMaxDelayMs(),
        });
    }
  });

  app.use(refuseCrossSiteWrites(sameOrigins));
  app.post("/api/functions/track-scan", ...trackScanEndpoint(services));
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
      eventLoopDelay.disable();
      return stopServices(services);
    },
  };
}

type AppContextFields = Pick<RouterContextProvider, "services" | "logger" | "requestId" | "cspNonce" | "sharedDocument">;

function appContext(fields: AppContextFields): RouterContextProvider {
  return Object.assign(new RouterContextProvider(), fields);
}

/** What a 429 that names no wait (a page's form post) tells the client: about one minute. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** What a page without an action accepts: React Router answers its 405 for a POST with no `Allow`. */
const PAGE_READ_METHODS = "GET, HEAD";

/**
 * Every 429 carries Retry-After: better-auth's sign-in limiter names its wait only in X-Retry-After, and a page's
 * form post answers through React Router without one. Every 405 carries Allow: the request guard and the
 * functions name theirs; React Router's own 405 (a POST to a page that has no action) names none, and such a
 * page reads only. Set as the head is written, whoever wrote the status.
 */
export function refusalsCarryTheirHeaders(): RequestHandler {
  return (_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      const status = typeof args[0] === "number" ? args[0] : this.statusCode;
      if (status === 429 && !this.hasHeader("retry-after")) {
        this.setHeader("Retry-After", String(this.getHeader("x-retry-after") ?? DEFAULT_RETRY_AFTER_SECONDS));
      }
      if (status === 405 && !this.hasHeader("allow")) this.setHeader("Allow", PAGE_READ_METHODS);
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  };
}

/**
 * One caching rule for everything Express answers (pages, their `.data` requests, resource routes, functions;
 * decision 41): a response is stored nowhere (`private, no-store`) unless it marked itself `public`, as the icons,
 * manifests, hashed assets and the anonymous /saved do. A document or `.data` answer for a request that carries a
 * session cookie, and any response that sets a cookie, is private whatever it said. A public document varies on
 * Cookie, so a shared cache never hands the anonymous copy to a signed-in founder or the reverse. The anonymous
 * pitch page is answered ahead of Express, from the page cache, with the same rule (server/pitch-page.ts).
 * Applied as the head is written, whoever set the headers.
 */
export function privateUnlessMarkedPublic(): RequestHandler {
  return (req, res, next) => {
    const signedIn = hasSessionCookie(req.headers.cookie);
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      const cacheControl = String(this.getHeader("cache-control") ?? "");
      const contentType = String(this.getHeader("content-type") ?? "");
      const personal = isPersonalAnswer(req.path, contentType);
      if (!/\bpublic\b/i.test(cacheControl) || this.hasHeader("set-cookie") || (signedIn && personal)) {
        this.setHeader("Cache-Control", /\bno-transform\b/i.test(cacheControl) ? "private, no-store, no-transform" : "private, no-store");
      } else if (personal) {
        appendVary(this, "Cookie");
      }
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  };
}

/** A document or a page's data: what a layout renders with the visitor's session (a name, a menu). */
function isPersonalAnswer(path: string, contentType: string): boolean {
  return path.endsWith(".data") || /^text\/html\b/i.test(contentType);
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

function appendVary(res: ServerResponse, field: string): void {
  const vary = String(res.getHeader("vary") ?? "");
  const fields = vary.split(",").map((name) => name.trim().toLowerCase());
  if (!fields.includes(field.toLowerCase())) res.setHeader("Vary", vary ? `${vary}, ${field}` : field);
}

function assignRequestContext(logger: Logger, ipv6LimitPrefix: number, isShuttingDown?: () => boolean): RequestHandler {
  return (req, res, next) => {
    const requestId = crypto.randomUUID();
    const locals = res.locals as Locals;
    locals.requestId = requestId;
    locals.logger = logger.child({ requestId });
    // The only client address the app trusts: Express derives it from TRUST_PROXY, never from raw headers.
    setClientAddressHeaders(req.headers, req.ip ?? req.socket.remoteAddress, ipv6LimitPrefix);
    // The request log names every request by its id; a passive resource's answer does not repeat it (decision 73).
    if (!isPassiveResource(req.path)) res.setHeader("X-Request-Id", requestId);
    if (isShuttingDown?.()) res.setHeader("Connection", "close");
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      locals.logger.info(
        { method: req.method, path: req.path, status: res.statusCode, durationMs: Math.round(durationMs * 10) / 10 },
        "request",
      );
    });
    next();
  };
}

/** The app's Content-Security-Policy; inline scripts are allowed by a per-response nonce or by hash. */
export function contentSecurityPolicy(config: AppConfig, scriptSources: readonly string[]): string {
  const directives: Record<string, readonly string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...scriptSources],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "frame-src": ["https://www.youtube-nocookie.com", "https://player.vimeo.com", "https://www.loom.com"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  const policy = Object.entries(directives).map(([name, values]) => `${name} ${values.join(" ")}`);
  if (config.publicUrl.startsWith("https://")) policy.push("upgrade-insecure-requests");
  return policy.join("; ");
}

/**
 * Responses a browser never shows as a document nor runs as a worker: hashed scripts and styles, PNG icons, web app
 * manifests and event streams (the service worker, `/pitch-sw.js`, and SVG are not among them). They carry the
 * headers that protect any response (`nosniff`, Cross-Origin-Resource-Policy, HSTS) but not those that only govern
 * a document (its policy, framing, opener, referrer and legacy headers): about 650 bytes on each, a fifth of what
 * a phone downloaded besides the page on a first visit (issue 26).
 */
const PASSIVE_RESOURCES = [
  /^\/assets\//,
  /^\/(?:icons|app-icons)\/[\w.-]+\.png$/,
  /^\/apple-touch-icon\.png$/,
  /(?:^|\/)manifest\.webmanifest$/,
  /^\/api\/wall\/[^/]+\/stream$/,
  /^\/project\/[^/]+\/booth\/stream$/,
];

export const isPassiveResource = (path: string) => PASSIVE_RESOURCES.some((pattern) => pattern.test(path));

function securityHeaders(config: AppConfig): RequestHandler {
  const https = config.publicUrl.startsWith("https://");
  const strictTransportSecurity = https ? { maxAge: 31_536_000, includeSubDomains: true } : false;
  const everyResponse = helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    strictTransportSecurity,
  });
  const documents = helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xFrameOptions: { action: "deny" },
    strictTransportSecurity,
  });
  return (req, res, next) => (isPassiveResource(req.path) ? everyResponse : documents)(req, res, next);
}

/** A fresh nonce for each rendered response; responses served from the page cache allow their scripts by hash. */
function contentSecurityPolicyWithNonce(config: AppConfig): RequestHandler {
  return (req, res, next) => {
    const locals = res.locals as Locals;
    locals.cspNonce = crypto.randomBytes(16).toString("base64");
    // Vite's dev server injects inline scripts of its own: no CSP under `npm run dev`.
    if (config.env !== "development" && !isPassiveResource(req.path)) {
      res.setHeader("Content-Security-Policy", contentSecurityPolicy(config, [`'nonce-${locals.cspNonce}'`]));
    }
    next();
  };
}

/** Cached pages allow their inline scripts by hash: a cached document cannot carry a per-response nonce. */
function cachedPageContentSecurityPolicy(config: AppConfig): (page: CachedPitchPage) => string {
  const policies = new WeakMap<CachedPitchPage, string>();
  return (page) => {
    let policy = policies.get(page);
    if (!policy) policies.set(page, (policy = contentSecurityPolicy(config, page.scriptHashes)));
    return policy;
  };
}

/** The headers a middleware sets on every response (helmet's are static), captured once to set them without Express. */
function headersSetBy(middleware: RequestHandler): Array<[string, string]> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.set(name, String(value)),
    removeHeader: (name: string) => void headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  middleware({ headers: {}, method: "GET", path: "/pitch/" } as never, response as never, () => {});
  return [...headers];
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
