const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type OriginCheckInput = {
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** The origin this request was addressed to, as seen by the server (scheme and Host). */
  requestOrigin: string;
};

/**
 * Refuses state-changing requests that a browser sent on behalf of another site. Browsers send
 * `Origin` on every POST, PUT, PATCH and DELETE (and `Sec-Fetch-Site` on all modern ones); a request
 * carrying neither is not a browser acting for another site (curl, a server), so it is let through.
 */
export function isCrossSiteWrite(input: OriginCheckInput, allowedOrigins: readonly string[]): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return false;
  if (input.origin && input.origin !== "null") {
    return input.origin !== input.requestOrigin && !allowedOrigins.includes(input.origin);
  }
  if (input.origin === "null") return true;
  if (input.secFetchSite) return input.secFetchSite !== "same-origin" && input.secFetchSite !== "none";
  return false;
}
