import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { Request, RequestHandler, Response } from "express";
import { DECK_READING_PATH } from "~/modules/deck-reading/reading-rules";
import { DECK_MAX_BYTES, deckRefusalMessage } from "~/modules/deck/deck-rules";
import type { Logger } from "~/modules/logging/logger.server";

/**
 * What each address accepts, checked before any route runs (decision "request guard"): the method (405 with
 * `Allow`), the path (400 for broken %-encoding, 414 past MAX_PATH_LENGTH), the Host header (400 when no address can
 * be made of it), the content type (415) and the body
 * size, counted while the body streams (413, then the connection is closed so the rest is never read).
 * A body that passes is held in memory (it is small by then) and handed to the routes from there.
 */

const KB = 1024;
/** The largest legitimate form, the project form, is about 25,000 characters; %-encoded UTF-8 is up to 9 bytes each. */
const FOUNDER_FORM_BYTES = 256 * KB;
/** The visitor forms and functions: about 4,400 characters at most (name, e-mail, link, note, message). */
const VISITOR_BODY_BYTES = 48 * KB;
const TRACK_SCAN_BYTES = 4 * KB;
/** A phone's beats, up to the 50 it may send at once after being offline. */
const DECK_READING_BYTES = 32 * KB;
/** A slug is at most 80 characters and ids are UUIDs: a longer path is never one of ours. */
export const MAX_PATH_LENGTH = 2048;

/** A deck upload: the PDF at its limit and the form's few fields around it. */
const DECK_UPLOAD_BYTES = DECK_MAX_BYTES + 64 * KB;
const DECK_UPLOAD_PATH = /^\/project\/[^/]+\/deck(?:\.data)?$/;

const FORM = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";
const JSON_TYPE = "application/json";

type Acceptance = { methods: readonly string[]; types: readonly string[] | "any"; maxBytes: number; tooLarge?: string };

const PAGE_METHODS = ["GET", "HEAD", "POST"];

/**
 * The routes that answer an endless event stream. React Router also answers each path's single-fetch `.data`
 * variant, which for these would wait for the stream to end and hold the connection without a byte: such a
 * request is answered 404 at once.
 */
const EVENT_STREAM_PATH = /^\/(?:api\/wall\/[^/]+\/stream|project\/[^/]+\/booth\/stream)$/;

export function isEventStreamDataPath(path: string): boolean {
  return path.endsWith(".data") && EVENT_STREAM_PATH.test(path.slice(0, -".data".length));
}

function acceptanceOf(path: string): Acceptance {
  if (path === "/api/functions/track-scan") return { methods: ["POST"], types: [JSON_TYPE], maxBytes: TRACK_SCAN_BYTES };
  if (path === DECK_READING_PATH) return { methods: ["POST"], types: [JSON_TYPE], maxBytes: DECK_READING_BYTES };
  if (path.startsWith("/api/functions/")) return { methods: ["POST"], types: [JSON_TYPE], maxBytes: VISITOR_BODY_BYTES };
  if (path === "/api/activity" || path.startsWith("/api/wall/")) return { methods: ["GET", "HEAD"], types: [], maxBytes: 0 };
  // Any other API path is answered 404 (JSON) by its catch-all route, for a GET or a POST.
  if (path.startsWith("/api/")) return { methods: PAGE_METHODS, types: [JSON_TYPE, FORM], maxBytes: TRACK_SCAN_BYTES };
  // RFC 8058: mail providers POST `List-Unsubscribe=One-Click` in either form encoding (or, in practice, as they
  // please); the body is never read, the signed token decides.
  if (path === "/unsubscribe/one-click") return { methods: PAGE_METHODS, types: "any", maxBytes: KB };
  if (DECK_UPLOAD_PATH.test(path)) return { methods: PAGE_METHODS, types: [FORM, MULTIPART], maxBytes: DECK_UPLOAD_BYTES, tooLarge: deckRefusalMessage("too_large") };
  if (path.startsWith("/pitch/") || path === "/unsubscribe" || path === "/auth" || path.startsWith("/auth/"))
    return { methods: PAGE_METHODS, types: [FORM], maxBytes: VISITOR_BODY_BYTES };
  return { methods: PAGE_METHODS, types: [FORM], maxBytes: FOUNDER_FORM_BYTES };
}

const bufferedBodies = new WeakMap<IncomingMessage, Buffer>();

export function requestGuard(originOf: (req: Request) => string): RequestHandler {
  return (req, res, next) => {
    const logger = (res.locals as { logger: Logger }).logger;
    const refuse = (status: number, message: string, headers: Record<string, string> = {}) => {
      logger.info({ method: req.method, status, reason: message }, "request refused");
      res.set(headers);
      if (req.path.startsWith("/api/")) res.status(status).json({ error: message });
      else res.status(status).type("text/plain").send(message);
    };

    if (req.path.length > MAX_PATH_LENGTH) return refuse(414, "Address too long");
    try {
      decodeURIComponent(req.path);
    } catch {
      return refuse(400, "Malformed address");
    }

    if (req.path !== "/healthz" && !hostMakesAnAddress(req, originOf)) return refuse(400, "Malformed Host header");
    if (isEventStreamDataPath(req.path)) return refuse(404, "Not found");

    const accepted = acceptanceOf(req.path);
    if (!accepted.methods.includes(req.method)) return refuse(405, "Method not allowed", { Allow: accepted.methods.join(", ") });
    if (req.method === "GET" || req.method === "HEAD") return next();

    const declaredLength = req.headers["content-length"] === undefined ? null : Number(req.headers["content-length"]);
    const hasBody = req.headers["transfer-encoding"] !== undefined || (declaredLength !== null && declaredLength > 0);
    if (!hasBody) return next();
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (accepted.types !== "any" && !accepted.types.includes(type)) {
      return closeAfter(res, () => refuse(415, type ? `Unsupported content type: ${type}` : "A content type is required"));
    }
    const tooLarge = accepted.tooLarge ?? "Request body is too large";
    if (declaredLength !== null && declaredLength > accepted.maxBytes) return closeAfter(res, () => refuse(413, tooLarge));

    readCapped(req, accepted.maxBytes).then(
      (body) => {
        if (body === null) return closeAfter(res, () => refuse(413, tooLarge));
        bufferedBodies.set(req, body);
        next();
      },
      () => {
        // The client went away mid-body: nobody is left to answer.
        req.socket.destroy();
      },
    );
  };
}

/**
 * Whether the Host (or, behind a trusted proxy, X-Forwarded-Host) header names an address, and the request's origin
 * (`originOf`, which React Router's request URL is made of) is one: `new URL` throws on a host like `a b` or a port
 * past 65535, which was a 500 logged as an error. `/healthz` is exempt: a load balancer's probe may send no Host.
 */
function hostMakesAnAddress(req: Request, originOf: (req: Request) => string): boolean {
  if (!req.hostname || !URL.canParse(`${originOf(req)}/`)) return false;
  const portOf = (host: string | undefined) => Number.parseInt(host?.split(":")[1] ?? "", 10);
  const port = [req.app.enabled("trust proxy") ? portOf(req.get("x-forwarded-host")) : Number.NaN, portOf(req.get("host"))].find(Number.isSafeInteger);
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return URL.canParse(`${req.protocol}://${hostname}${port ? `:${port}` : ""}/`);
}

/** The body, or null once it passes `maxBytes` (reading stops there; what was read is dropped). */
function readCapped(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanUp();
        req.pause();
        chunks.length = 0;
        return resolve(null);
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanUp();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanUp();
      reject(error);
    };
    const onAborted = () => onError(new Error("request aborted"));
    function cleanUp() {
      req.off("data", onData).off("end", onEnd).off("error", onError).off("aborted", onAborted);
    }
    req.on("data", onData).on("end", onEnd).on("error", onError).on("aborted", onAborted);
  });
}

/** How long a refused connection still takes (and drops) what the client sends, so that it reads the answer. */
const LINGER_MS = 2_000;

/**
 * Answers, then closes the connection: the unread rest of the body is not worth receiving. Node would end a
 * `Connection: close` socket and destroy it as soon as the answer is flushed; with the client still sending,
 * that resets the connection and the client can lose the answer unread. So this connection closes the way web
 * servers' "lingering close" does: our side ends, what still arrives is dropped, and the socket is destroyed
 * when the client stops or after LINGER_MS.
 */
function closeAfter(res: Response, answer: () => void): void {
  const socket = res.req.socket;
  socket.destroySoon = () => {
    socket.end();
    socket.once("end", () => socket.destroy());
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  res.setHeader("Connection", "close");
  answer();
}

/** The body the guard read, for handlers that take it from there rather than from the (spent) stream. */
export function guardedBody(req: IncomingMessage): Buffer | undefined {
  return bufferedBodies.get(req);
}

/**
 * The request as the routes read it: when the guard has read the body, its stream methods replay that body
 * (the original stream is spent); everything else is the request itself.
 */
export function withGuardedBody(req: Request): Request {
  const body = bufferedBodies.get(req);
  if (!body) return req;
  const replay = Readable.from([body], { objectMode: false });
  const view = Object.create(req) as Request;
  for (const method of ["on", "once", "off", "addListener", "removeListener", "pause", "resume", "destroy", "pipe", "read", "unpipe"] as const) {
    Object.defineProperty(view, method, { value: (replay[method] as (...args: unknown[]) => unknown).bind(replay) });
  }
  Object.defineProperty(view, "readableHighWaterMark", { value: replay.readableHighWaterMark });
  return view;
}
