import crypto from "node:crypto";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import helmet from "helmet";
import type { ServerBuild } from "react-router";
import { loadConfig, type AppConfig } from "~/config.server";
import { CLIENT_IP_HEADER } from "~/modules/http/client-ip.server";
import { isCrossSiteWrite } from "~/modules/http/origin.server";
import { createLogger, type Logger } from "~/modules/logging/logger.server";
import { startServices, stopServices, type AppServices } from "~/services.server";

declare module "react-router" {
  interface AppLoadContext {
    services: AppServices;
    logger: Logger;
    requestId: string;
    cspNonce: string;
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
};

export async function createApp(options: AppOptions = {}) {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const services = await startServices(config, logger);
  const app = express();

  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  app.use(assignRequestContext(logger, options.isShuttingDown));
  app.use(securityHeaders(config));
  app.use(compression());

  if (options.devMiddlewares) app.use(options.devMiddlewares);
  if (options.clientDir) {
    app.use("/assets", express.static(path.join(options.clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(options.clientDir, { maxAge: "1h", index: false }));
  }

  app.get("/healthz", async (_req, res) => {
    try {
      await services.database.ping();
      res.set("Cache-Control", "no-store").json({ status: "ok" });
    } catch (error) {
      (res.locals as Locals).logger.error({ err: error }, "health check failed");
      res.status(503).set("Cache-Control", "no-store").json({ status: "unavailable" });
    }
  });

  app.use(refuseCrossSiteWrites(config));

  app.all(
    "/{*path}",
    createRequestHandler({
      build: () => import("virtual:react-router/server-build") as Promise<ServerBuild>,
      getLoadContext(_req, res) {
        const locals = res.locals as Locals;
        return { services, logger: locals.logger, requestId: locals.requestId, cspNonce: locals.cspNonce };
      },
    }),
  );

  app.use(unexpectedError);

  return { app, config, logger, close: () => stopServices(services) };
}

function assignRequestContext(logger: Logger, isShuttingDown?: () => boolean): RequestHandler {
  return (req, res, next) => {
    const requestId = crypto.randomUUID();
    const locals = res.locals as Locals;
    locals.requestId = requestId;
    locals.logger = logger.child({ requestId });
    locals.cspNonce = crypto.randomBytes(16).toString("base64");
    // The only client address the app trusts: Express derives it from TRUST_PROXY, never from raw headers.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    res.setHeader("X-Request-Id", requestId);
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

function securityHeaders(config: AppConfig): RequestHandler {
  const https = config.publicUrl.startsWith("https://");
  return helmet({
    contentSecurityPolicy:
      config.env === "development"
        ? false
        : {
            useDefaults: false,
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'", (_req, res) => `'nonce-${((res as express.Response).locals as Locals).cspNonce}'`],
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", "data:", "blob:"],
              fontSrc: ["'self'"],
              connectSrc: ["'self'"],
              frameSrc: ["https://www.youtube-nocookie.com", "https://player.vimeo.com", "https://www.loom.com"],
              objectSrc: ["'none'"],
              baseUri: ["'self'"],
              formAction: ["'self'"],
              frameAncestors: ["'none'"],
              ...(https ? { upgradeInsecureRequests: [] } : {}),
            },
          },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xFrameOptions: { action: "deny" },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}

function refuseCrossSiteWrites(config: AppConfig): RequestHandler {
  return (req, res, next) => {
    const refused = isCrossSiteWrite(
      {
        method: req.method,
        origin: req.get("origin"),
        secFetchSite: req.get("sec-fetch-site"),
        requestOrigin: `${req.protocol}://${req.get("host")}`,
      },
      [config.publicOrigin],
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
  locals.logger?.error({ err: error }, "unhandled error");
  if (res.headersSent) return;
  res.status(500).type("text/plain").send("Something went wrong. Please try again.");
};
