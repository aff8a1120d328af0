/**
 * The one request header the app trusts for the client's address. The Express layer sets it on every
 * request from `req.ip`, which honours TRUST_PROXY; a value sent by the client is always overwritten.
 */
export const CLIENT_IP_HEADER = "x-pitch-client-ip";

export function clientIpOf(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}
