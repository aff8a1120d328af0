import type { PageDoor } from "~/modules/scans/page-door.server";
import { clientIpOf } from "./client-ip.server";

/** Who sent a request that is not a project's visitor form: their network address and their browser. */
export type RequestingBrowser = { clientAddress: string; browserKey: string };

/**
 * The browser is known by its viewer cookie (decision 15), else by a daily hash of its address and user agent
 * (`scope` keeps the hash apart from a project's), so a per-browser limit has something to count.
 */
export function requestingBrowser(request: Request, pageDoor: PageDoor, scope: string): RequestingBrowser {
  const clientAddress = clientIpOf(request);
  const browser = pageDoor.identify(scope, { cookieHeader: request.headers.get("cookie"), clientAddress, userAgent: request.headers.get("user-agent") });
  return { clientAddress, browserKey: browser.viewerFingerprint ?? browser.addressHash ?? clientAddress };
}
