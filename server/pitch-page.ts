import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import proxyaddr from "proxy-addr";
import type { Auth } from "~/modules/auth/auth.server";
import { getSessionUserByCookie } from "~/modules/auth/session.server";
import { hasFlashCookie } from "~/modules/flash/flash.server";
import type { Logger } from "~/modules/logging/logger.server";
import type { CachedPitchPage, EncodedBody, PitchPageCache } from "~/modules/pitch/page-cache.server";
import { readPitchRevision } from "~/modules/pitch/pitch-page.server";
import { codeMovedTo, currentSlugOf, MOVED_PITCH_CACHE_CONTROL, MOVED_PITCH_STATUS, movedPitchLocation } from "~/modules/pitch/moved-pitch.server";
import { SLUG_PATTERN } from "~/modules/projects/project-form";
import { OFFLINE_COPY_HEADER, PageDoor, type PageLoadDecision, type PageLoadRequest, type PitchProject, type RecentPageLoads } from "~/modules/scans/page-door.server";
import type { ScanRecorder } from "~/modules/scans/scans.server";
import { pitchTeam } from "~/modules/scans/team-devices.server";
import type { Database } from "~/db/schema";
import type { Kysely } from "kysely";
import { isRecordId } from "~/modules/http/id-shape";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { networkKeyOf } from "~/modules/http/ip-address.server";

/** `/pitch/{slug}/dialogs`: the page's dialogs, cut out of the cached document (decision 51). */
const DIALOGS_SUFFIX = "/dialogs";

type TrustFunction = (address: string, hop: number) => boolean;

export type PitchPageServingOptions = {
  db: Kysely<Database>;
  cache: PitchPageCache;
  door: PageDoor;
  scans: ScanRecorder;
  recentLoads: RecentPageLoads;
  auth: Auth;
  logger: Logger;
  /** The app's security headers (helmet's), set on every cached response as Express would. */
  securityHeaders: ReadonlyArray<readonly [string, string]>;
  contentSecurityPolicy: (page: CachedPitchPage) => string;
  trustProxy: TrustFunction;
  /** The IPv6 prefix of a client's network (`networkKeyOf`), as the Express layer keys it. */
  ipv6LimitPrefix: number;
  isShuttingDown?: () => boolean;
};


/**
 * The visitor's pitch page, the busiest document of the app, in two parts:
 * - `serveFromCache` answers an anonymous page from PitchPageCache straight from the HTTP server, before
 *   Express and its middleware (same security headers, ETag/304, brotli or gzip, request log);
 * - `countRenderedLoad` counts the loads that Express renders (signed-in visitors, other query strings).
 * Both count the page load at the door (decision 15) without waiting for the write.
 */
export function createPitchPageServing(options: PitchPageServingOptions) {
  const { cache, door, scans, recentLoads, logger } = options;

  function admit(decision: PageLoadDecision, project: PitchProject, setHeader: (name: string, value: string) => void): void {
    if (decision.kind === "excluded") return scans.exclude(project.id, decision.reason);
    if (decision.kind === "speculative") {
      // Tallied as a prefetch; the page's beacon counts it if and when it is shown, as the viewer this cookie names.
      scans.exclude(project.id, "prefetch");
      if (decision.newViewerId) setHeader("Set-Cookie", door.viewerCookie(decision.newViewerId));
      return;
    }
    if (decision.kind !== "counted") return;
    scans.record(decision.scan).catch((error: unknown) => logger.error({ err: error, projectId: project.id }, "page-load scan could not be recorded"));
    if (decision.scan.viewerFingerprint) recentLoads.remember(decision.scan.viewerFingerprint, project.id);
    if (decision.newViewerId) setHeader("Set-Cookie", door.viewerCookie(decision.newViewerId));
  }

  async function serveFromCache(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "";
    if (!url.startsWith("/pitch/")) return false;
    const queryStart = url.indexOf("?");
    const path = url.slice(0, queryStart < 0 ? undefined : queryStart);
    const dialogsOnly = path.endsWith(DIALOGS_SUFFIX);
    const slug = path.slice("/pitch/".length, dialogsOnly ? -DIALOGS_SUFFIX.length : undefined);
    if (!SLUG_PATTERN.test(slug)) return false;
    const query = new URLSearchParams(queryStart < 0 ? "" : url.slice(queryStart + 1));
    // The dialogs are the anonymous page's, whoever asks.
    const found = await cache.lookup(dialogsOnly ? { slug, cookie: undefined, queryKeys: [] } : { slug, cookie: req.headers.cookie, queryKeys: [...query.keys()] });
    if (!found && dialogsOnly) {
      // A page opened before its slug was renamed (decision 63) still asks for its dialogs at the old address.
      const current = await currentSlugOf(options.db, slug, null);
      if (!current) return false;
      res.statusCode = MOVED_PITCH_STATUS;
      res.setHeader("Location", `${movedPitchLocation(current, "")}${DIALOGS_SUFFIX}${queryStart < 0 ? "" : url.slice(queryStart)}`);
      res.setHeader("Cache-Control", MOVED_PITCH_CACHE_CONTROL);
      res.end();
      logger.info({ method: req.method, path, status: res.statusCode }, "request");
      return true;
    }
    if (!found || (dialogsOnly && !found.page.dialogs)) return false;

    const { page, project } = found;
    // A re-pointed code (decision 64) leads to its project now: redirected, not counted here.
    const movedTo = dialogsOnly ? null : await codeMovedTo(options.db, query.get("qr"), project.projectId, null);
    if (movedTo) {
      res.statusCode = MOVED_PITCH_STATUS;
      res.setHeader("Location", movedPitchLocation(movedTo, queryStart < 0 ? "" : url.slice(queryStart)));
      res.setHeader("Cache-Control", MOVED_PITCH_CACHE_CONTROL);
      res.end();
      logger.info({ method: req.method, path, status: res.statusCode }, "request");
      return true;
    }

    const started = process.hrtime.bigint();
    const requestId = crypto.randomUUID();
    for (const [name, value] of options.securityHeaders) res.setHeader(name, value);
    res.setHeader("X-Request-Id", requestId);
    if (options.isShuttingDown?.()) res.setHeader("Connection", "close");
    res.setHeader("Content-Security-Policy", options.contentSecurityPolicy(page));
    const logRequest = () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId, method: req.method, path, status: res.statusCode, durationMs: Math.round(durationMs * 10) / 10 }, "request");
    };
    if (dialogsOnly) {
      // Not a page load: nothing is counted (decision 51).
      res.setHeader("Cache-Control", "public, no-cache");
      res.setHeader("X-Robots-Tag", "noindex");
      sendEncoded(req, res, page.dialogs!);
      logRequest();
      return true;
    }

    let setsCookie = false;
    const pitch = await pitchTeam(options.db, door, project, null, req.headers.cookie);
    admit(
      door.decide(pageLoadRequest(req, networkKeyOf(proxyaddr(req, options.trustProxy), options.ipv6LimitPrefix), query.get("qr"), false), pitch, null),
      pitch,
      (name, value) => {
        setsCookie = true;
        res.setHeader(name, value);
      },
    );

    // A response that gives a browser its viewer id is for that browser only.
    res.setHeader("Cache-Control", setsCookie ? "private, no-cache" : "public, no-cache");
    res.setHeader("Vary", "Cookie");
    res.setHeader("X-Page-Cache", "hit");
    sendEncoded(req, res, page);
    logRequest();
    return true;
  }

  const countRenderedLoad: RequestHandler = async (req, res, next) => {
    try {
      const slug = String(req.params.slug ?? "");
      const project = await readPitchRevision(options.db, slug);
      const cookie = req.headers.cookie;
      const qr = typeof req.query.qr === "string" ? req.query.qr : null;
      const search = req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?")) : "";
      const redirectTo = (target: string) => res.status(MOVED_PITCH_STATUS).set("Cache-Control", MOVED_PITCH_CACHE_CONTROL).redirect(MOVED_PITCH_STATUS, movedPitchLocation(target, search));
      if (!project) {
        // A slug the project had before (decision 63): the page it has now, query kept; the hop is not a page load.
        const sessionUser = await getSessionUserByCookie(options.auth, cookie);
        const current = await currentSlugOf(options.db, slug, sessionUser?.id ?? null);
        return current ? redirectTo(current) : next();
      }
      if (!project.published) return next();
      const sessionUser = await getSessionUserByCookie(options.auth, cookie);
      const movedTo = await codeMovedTo(options.db, qr, project.projectId, sessionUser?.id ?? null);
      if (movedTo) return redirectTo(movedTo);
      const withinPage = "dialog" in req.query || "sent" in req.query || hasFlashCookie(cookie);
      const pitch = await pitchTeam(options.db, door, project, sessionUser?.id ?? null, cookie);
      admit(door.decide(pageLoadRequest(req, clientIpOf(req), qr, withinPage), pitch, sessionUser?.id ?? null), pitch, (name, value) => res.append(name, value));
      // A founder signed in before devices were marked at sign-in: this device is their team's from now on.
      if (sessionUser && !door.teamMembersOf(cookie).includes(sessionUser.id)) res.append("Set-Cookie", door.teamDeviceCookie(sessionUser.id, cookie));
      next();
    } catch (error) {
      next(error);
    }
  };

  return { serveFromCache, countRenderedLoad };
}

function pageLoadRequest(req: IncomingMessage, clientAddress: string, qr: string | null, withinPage: boolean): PageLoadRequest {
  const purpose = req.headers["sec-purpose"] ?? req.headers["purpose"] ?? req.headers["x-purpose"] ?? req.headers["x-moz"];
  const cacheControl = req.headers["cache-control"] ?? "";
  const clientHints = req.headers["sec-ch-ua"];
  return {
    method: req.method ?? "GET",
    userAgent: req.headers["user-agent"],
    acceptLanguage: req.headers["accept-language"],
    clientHints: Array.isArray(clientHints) ? clientHints.join(",") : clientHints,
    purpose: Array.isArray(purpose) ? purpose.join(",") : purpose,
    cookieHeader: req.headers.cookie,
    revalidating: !!req.headers["if-none-match"] || /max-age=0|no-cache/i.test(cacheControl),
    clientAddress,
    qrCodeId: isRecordId(qr) ? qr : null,
    withinPage,
    backgroundFetch: PageDoor.isBackgroundFetch(req.headers),
    offlineCopy: !!req.headers[OFFLINE_COPY_HEADER],
  };
}

/** An HTML body from the page cache: 304 for a browser that has it, else in the coding it prefers. */
function sendEncoded(req: IncomingMessage, res: ServerResponse, body: EncodedBody & { etag: string }) {
  res.setHeader("Vary", [res.getHeader("Vary"), "Accept-Encoding"].filter(Boolean).join(", "));
  res.setHeader("ETag", body.etag);
  if (etagMatches(req.headers["if-none-match"], body.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  const bytes = encoding === "br" ? body.brotli : encoding === "gzip" ? body.gzip : body.html;
  res.statusCode = 200;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", bytes.length);
  res.end(req.method === "HEAD" ? undefined : bytes);
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header === etag || header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}

/** brotli, gzip or none, as the request accepts (`q=0` refuses a coding). */
export function preferredEncoding(header: string | undefined): "br" | "gzip" | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}
