import crypto from "node:crypto";
import type { ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import helmet from "helmet";
import type { AppConfig } from "~/config.server";
import { hasSessionCookie } from "~/modules/auth/session.server";
import type { CachedPitchPage } from "~/modules/pitch/page-cache.server";
import type { Locals } from "./request-context";

// What every answer carries besides its body: the headers refusals owe, the one caching rule, the security headers
// and the Content-Security-Policy. Each is applied to the Express app in server/app.ts.

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

function appendVary(res: ServerResponse, field: string): void {
  const vary = String(res.getHeader("vary") ?? "");
  const fields = vary.split(",").map((name) => name.trim().toLowerCase());
  if (!fields.includes(field.toLowerCase())) res.setHeader("Vary", vary ? `${vary}, ${field}` : field);
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
 * a phone downloaded besides the page on a first visit.
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

export function securityHeaders(config: AppConfig): RequestHandler {
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
export function contentSecurityPolicyWithNonce(config: AppConfig): RequestHandler {
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
export function cachedPageContentSecurityPolicy(config: AppConfig): (page: CachedPitchPage) => string {
  const policies = new WeakMap<CachedPitchPage, string>();
  return (page) => {
    let policy = policies.get(page);
    if (!policy) policies.set(page, (policy = contentSecurityPolicy(config, page.scriptHashes)));
    return policy;
  };
}

/** The headers a middleware sets on every response (helmet's are static), captured once to set them without Express. */
export function headersSetBy(middleware: RequestHandler): Array<[string, string]> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.set(name, String(value)),
    removeHeader: (name: string) => void headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  middleware({ headers: {}, method: "GET", path: "/pitch/" } as never, response as never, () => {});
  return [...headers];
}
