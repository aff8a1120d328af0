import type { IncomingHttpHeaders } from "node:http";

export type OriginRequest = {
  /** Whether the connection to this server is TLS (it never is behind a TLS-terminating proxy). */
  encrypted: boolean;
  remoteAddress: string | undefined;
  headers: IncomingHttpHeaders;
};

export type RequestOriginOptions = {
  /** PUBLIC_URL's origin when the operator set it; undefined when the app made its own default. */
  configuredPublicOrigin: string | undefined;
  /** Express's compiled TRUST_PROXY: whether the peer at `hop` is a proxy we believe. */
  trusts: (address: string, hop: number) => boolean;
  /** Told once per distinct problem with a proxy's headers, in words an operator can act on. */
  warn: (message: string, details: Record<string, string | undefined>) => void;
};

const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"] as const;

/**
 * The origin a request was addressed to, as the browser saw it: what the same-origin checks (ours and React
 * Router's action check) compare a form post's `Origin` with, and what React Router's `request.url` is made of.
 *
 * A request straight from a client is at its own scheme and `Host`. A request from a trusted proxy (TRUST_PROXY,
 * and a forwarding header present) is at PUBLIC_URL when the operator set it: that is the app's one public address,
 * and a proxy that drops `X-Forwarded-Proto`, or sends an `X-Forwarded-Host` without the port, cannot break it.
 * Without PUBLIC_URL it is the forwarded scheme and host, falling back to the connection's scheme and `Host`.
 * Either way, a forwarded origin that disagrees is logged once, naming the header the proxy should send.
 */
export function createRequestOrigin(options: RequestOriginOptions): (request: OriginRequest) => string {
  const warned = new Set<string>();
  const warnOnce = (key: string, message: string, details: Record<string, string | undefined>) => {
    if (warned.has(key)) return;
    warned.add(key);
    options.warn(message, details);
  };

  return (request) => {
    const socketScheme = request.encrypted ? "https" : "http";
    const host = firstValue(request.headers.host) ?? "";
    const direct = `${socketScheme}://${host}`;
    const proxied =
      request.remoteAddress !== undefined &&
      options.trusts(request.remoteAddress, 0) &&
      FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
    if (!proxied) return direct;

    const proto = firstValue(request.headers["x-forwarded-proto"])?.toLowerCase();
    const forwardedHost = firstValue(request.headers["x-forwarded-host"]);
    const forwarded = `${proto === "https" || proto === "http" ? proto : socketScheme}://${forwardedHost ?? host}`;
    const missing: string[] = [];
    if (!proto) missing.push("X-Forwarded-Proto");
    if (forwardedHost && !hasPort(forwardedHost) && hasPort(host)) missing.push(`the port in X-Forwarded-Host (Host has it: ${host})`);
    const details = { forwardedProto: proto, forwardedHost, host };

    if (options.configuredPublicOrigin) {
      if (missing.length > 0 && forwarded !== options.configuredPublicOrigin) {
        warnOnce(
          `public:${missing.join()}`,
          `The proxy's headers give ${forwarded}, not PUBLIC_URL's ${options.configuredPublicOrigin}: it sends no ${missing.join(", nor ")}. ` +
            "The app takes proxied requests to be at PUBLIC_URL; have the proxy send the header so its requests say where they were addressed.",
          details,
        );
      }
      return options.configuredPublicOrigin;
    }
    if (missing.length > 0) {
      warnOnce(
        `forwarded:${missing.join()}`,
        `The proxy sends no ${missing.join(", nor ")}: the app takes its requests to be at ${forwarded}, and a form posted from any other ` +
          "address is refused. Have the proxy send the header, or set PUBLIC_URL to the app's public address.",
        details,
      );
    }
    return forwarded;
  };
}

/** The first of a header's values: proxies append theirs (`https, http`), and the client-facing one comes first. */
function firstValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const first = text?.split(",")[0]?.trim();
  return first ? first : undefined;
}

function hasPort(host: string): boolean {
  return /:\d+$/.test(host);
}
