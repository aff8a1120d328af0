/**
 * The push services a subscription's endpoint may point at (decision 56): the browsers' own, plus any the operator
 * names in PUSH_SERVICE_ORIGINS. A subscription elsewhere is refused, so a push is never POSTed to an address a
 * founder's browser (or a script) chose.
 */
export type PushService = { protocol: "https:" | "http:"; host: string; port: string; subdomains: boolean };

/** FCM (Chrome, Edge on Android), Mozilla autopush (Firefox), WNS (Edge on Windows), Apple (Safari). */
export const KNOWN_PUSH_SERVICE_ORIGINS = [
  "https://fcm.googleapis.com",
  "https://updates.push.services.mozilla.com",
  "https://*.notify.windows.com",
  "https://web.push.apple.com",
] as const;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * One origin of PUSH_SERVICE_ORIGINS: `https://host[:port]`, `https://*.domain` for every subdomain, or plain
 * `http://` on a loopback host (a push service on the same machine). Throws a message naming what is wrong.
 */
export function parsePushServiceOrigin(raw: string): PushService {
  const subdomains = /^https?:\/\/\*\./.test(raw);
  let url: URL;
  try {
    url = new URL(raw.replace("://*.", "://"));
  } catch {
    throw new Error(`${raw} is not an origin such as https://push.example.com`);
  }
  if (url.pathname !== "/" || url.search || url.hash || url.username || url.password || raw.replace("://*.", "://").replace(/\/$/, "") !== url.origin) {
    throw new Error(`${raw} must be an origin only (scheme, host and port), such as https://push.example.com`);
  }
  if (url.protocol === "http:" && (!LOOPBACK_HOSTS.has(url.hostname) || subdomains)) throw new Error(`${raw} must use https (plain http only on localhost)`);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`${raw} must use https`);
  return { protocol: url.protocol, host: url.hostname, port: url.port, subdomains };
}

/** Comma- or space-separated origins; empty is none. */
export function parsePushServiceOrigins(value: string): PushService[] {
  return value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(parsePushServiceOrigin);
}

export const KNOWN_PUSH_SERVICES: readonly PushService[] = KNOWN_PUSH_SERVICE_ORIGINS.map(parsePushServiceOrigin);

/** True when `endpoint` is a URL on one of `services`. */
export function isAllowedPushEndpoint(endpoint: string, services: readonly PushService[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return services.some(
    (service) =>
      url.protocol === service.protocol &&
      url.port === service.port &&
      (service.subdomains ? url.hostname.endsWith(`.${service.host}`) : url.hostname === service.host),
  );
}
