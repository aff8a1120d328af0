import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type net from "node:net";
import path from "node:path";

/** Which forwarding headers the proxy adds besides X-Forwarded-For, as real proxies are (mis)configured. */
export type ForwardedHeaders = {
  proto?: string;
  /** Made from the Host the browser sent (for instance, without its port). */
  host?: (browserHost: string) => string;
};

export type TlsProxy = {
  port: number;
  url: string;
  /** Where requests go (the app's own http address) and which headers they get on the way. */
  forwardTo(target: string, headers: ForwardedHeaders): void;
  close(): Promise<void>;
};

// A self-signed certificate for 127.0.0.1, valid until 2126, made for these tests only (the key is no secret).
const TLS_DIR = path.join(import.meta.dirname, "tls");

/**
 * A TLS-terminating reverse proxy, as in front of a real deployment: HTTPS to the browser, plain HTTP to the app
 * with the app's own Host, X-Forwarded-For appended with the browser's address, and only the forwarding headers
 * `forwardTo` names.
 */
export async function startTlsProxy(): Promise<TlsProxy> {
  let target: URL | undefined;
  let forwarded: ForwardedHeaders = {};
  const agent = new http.Agent({ keepAlive: true });
  const server = https.createServer({ key: fs.readFileSync(path.join(TLS_DIR, "test-proxy.key")), cert: fs.readFileSync(path.join(TLS_DIR, "test-proxy.crt")) }, (req, res) => {
    if (!target) return void res.writeHead(502).end("no target");
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
    const browserAddress = req.socket.remoteAddress ?? "";
    headers["x-forwarded-for"] = req.headers["x-forwarded-for"] ? `${req.headers["x-forwarded-for"]}, ${browserAddress}` : browserAddress;
    if (forwarded.proto) headers["x-forwarded-proto"] = forwarded.proto;
    if (forwarded.host) headers["x-forwarded-host"] = forwarded.host(req.headers.host ?? "");
    const upstream = http.request(target, { method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    url: `https://127.0.0.1:${port}`,
    forwardTo(to, headers) {
      target = new URL(to);
      forwarded = headers;
    },
    close() {
      agent.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
