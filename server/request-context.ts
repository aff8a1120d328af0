import crypto from "node:crypto";
import type { RequestHandler } from "express";
import { RouterContextProvider } from "react-router";
import { setClientAddressHeaders } from "~/modules/http/client-ip.server";
import type { Logger } from "~/modules/logging/logger.server";
import type { AppServices } from "~/services.server";
import { isPassiveResource } from "./response-policy";

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

export type Locals = { requestId: string; logger: Logger; cspNonce: string };

type AppContextFields = Pick<RouterContextProvider, "services" | "logger" | "requestId" | "cspNonce" | "sharedDocument">;

export function appContext(fields: AppContextFields): RouterContextProvider {
  return Object.assign(new RouterContextProvider(), fields);
}

/** Names the request (an id in the log and the X-Request-Id header), fixes its client address, and logs it when answered. */
export function assignRequestContext(logger: Logger, ipv6LimitPrefix: number, isShuttingDown?: () => boolean): RequestHandler {
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
