import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { createRequestHandler as createCoreRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";

type RouterRequestOptions = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "development" | "production";
  /** The origin the request was addressed to (server/app.ts: `requestOrigin`), which `request.url` is made of. */
  originOf: (req: ExpressRequest) => string;
  loadContext: (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider;
};

/**
 * Express to React Router, as @react-router/express does it, with one difference: the Fetch request's URL is made
 * from the origin the app worked out for the request, not from `req.protocol` and the Host and X-Forwarded-Host
 * ports. React Router's action check compares a form post's `Origin` with that URL, and behind a TLS proxy that
 * sent no X-Forwarded-Proto (or an X-Forwarded-Host without the port) the adapter's URL was not the page's.
 */
export function createRouterRequestHandler(options: RouterRequestOptions): RequestHandler {
  const handleRequest = createCoreRequestHandler(options.build, options.mode);
  return async (req, res, next) => {
    try {
      const response = await handleRequest(fetchRequestOf(req, res, options.originOf(req)), options.loadContext(req, res));
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function fetchRequestOf(req: ExpressRequest, res: ExpressResponse, origin: string): Request {
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    for (const value of Array.isArray(values) ? values : [values]) headers.append(name, value);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  // Joined, not resolved: a path such as `//other.example/x` stays a path on this origin.
  return new Request(new URL(`${origin}${req.originalUrl}`), init);
}

async function send(res: ExpressResponse, response: Response): Promise<void> {
  if (isClosed(res)) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) res.flushHeaders();
  if (!response.body) return void res.end();
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!isClosed(res)) throw error;
  }
}

function isClosed(res: ExpressResponse): boolean {
  return res.destroyed || res.writableEnded;
}
