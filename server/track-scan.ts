import type { RequestHandler } from "express";
import { isbot } from "isbot";
import type { Logger } from "~/modules/logging/logger.server";
import type { AppServices } from "~/services.server";
import { getSessionUserByCookie } from "~/modules/auth/session.server";
import { InMemoryWindowLimit } from "~/modules/rate-limit/address-window.server";
import { TRACK_SCAN_LIMIT } from "~/modules/rate-limit/rate-limit.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { readJsonBody } from "./json-body";
import { recordScriptedScan } from "~/modules/scans/page-door.server";
import { normalizeScan, trackScanSchema } from "~/modules/scans/scans.server";
import { isTeamDevice } from "~/modules/scans/team-devices.server";

/**
 * POST /api/functions/track-scan, the busiest endpoint (every page view): answered by Express directly
 * rather than through the React Router handler, which costs several times more per request. Same body,
 * answers and errors as the spec's other server functions.
 */
export function trackScanEndpoint(services: Pick<AppServices, "scans" | "recentPageLoads" | "pageDoor" | "auth" | "database">): RequestHandler[] {
  // In memory, per instance: the busiest endpoint gets no database write per request for its limit.
  const perAddress = new InMemoryWindowLimit(TRACK_SCAN_LIMIT);
  const handle: RequestHandler = async (req, res) => {
    const logger = (res.locals as { logger: Logger }).logger;
    const input = readJsonBody(req, res, trackScanSchema);
    if (!input) return;
    // Crawlers and link-preview fetchers that run scripts are not visitors.
    if (isbot(req.get("user-agent"))) return void res.json({ success: true, counted: false });
    if (!perAddress.take(clientIpOf(req))) {
      return void res.status(429).set("Retry-After", String(perAddress.secondsLeft())).json({ error: TRACK_SCAN_LIMIT.message });
    }
    try {
      const scan = normalizeScan(input);
      const user = await getSessionUserByCookie(services.auth, req.headers.cookie);
      // The team looking at its own page is not a visitor, signed in or on a device a member marked.
      if (await isTeamDevice(services.database.db, services.pageDoor, scan.projectId, user?.id ?? null, req.headers.cookie)) {
        return void res.json({ success: true, counted: false });
      }
      const outcome = await recordScriptedScan(services, scan, { cookieHeader: req.headers.cookie, userAgent: req.get("user-agent") });
      if (outcome === "unknown-project") return void res.status(404).json({ error: "Project not found" });
      res.json({ success: true, counted: true, ...(outcome === "already-counted" ? { alreadyCounted: true } : {}) });
    } catch (error) {
      logger.error({ err: error }, "scan could not be recorded");
      res.status(500).json({ error: "Something went wrong. Please try again." });
    }
  };
  return [handle];
}

