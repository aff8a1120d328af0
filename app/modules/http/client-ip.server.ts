import type { IncomingHttpHeaders } from "node:http";
import { networkKeyOf } from "./ip-address.server";

/**
 * The request headers the app trusts for the client's address. The Express layer sets both on every request from
 * `req.ip`, which honours TRUST_PROXY; values sent by the client are always overwritten.
 * - `CLIENT_IP_HEADER`: the exact address, for better-auth (which keys its own limiter by IPv6 network itself).
 * - `CLIENT_NETWORK_HEADER`: the client's network (`networkKeyOf`: an IPv4 address, an IPv6 /64), which every
 *   per-address limit and the page door's daily address hash key on.
 */
export const CLIENT_IP_HEADER = "x-pitch-client-ip";
export const CLIENT_NETWORK_HEADER = "x-pitch-client-network";

/** Sets the trusted headers from the address Express derived (`req.ip`). */
export function setClientAddressHeaders(headers: IncomingHttpHeaders, address: string | undefined, ipv6Prefix: number): void {
  headers[CLIENT_IP_HEADER] = address ?? "unknown";
  headers[CLIENT_NETWORK_HEADER] = address ? networkKeyOf(address, ipv6Prefix) : "unknown";
}

/**
 * The client's network as every per-address limit knows it: its IPv4 address, or its IPv6 address's /64
 * (`IPV6_LIMIT_PREFIX`), so one connection cannot dodge a limit by rotating through the addresses it was given.
 */
export function clientIpOf(request: Request | { headers: IncomingHttpHeaders }): string {
  const value = request.headers instanceof Headers ? request.headers.get(CLIENT_NETWORK_HEADER) : request.headers[CLIENT_NETWORK_HEADER];
  return typeof value === "string" && value ? value : "unknown";
}
