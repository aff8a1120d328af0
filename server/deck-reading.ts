import type { RequestHandler } from "express";
import type { Logger } from "~/modules/logging/logger.server";
import type { AppServices } from "~/services.server";
import { getSessionUserByCookie } from "~/modules/auth/session.server";
import { InMemoryWindowLimit } from "~/modules/rate-limit/address-window.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { deckReadingSchema } from "~/modules/deck-reading/beat-schema";
import { beatCeilingKey, beatSenderOf } from "~/modules/deck-reading/beat-sender.server";
import { BEAT_REFUSAL_STATUS, isRefusal, recordDeckBeats } from "~/modules/deck-reading/record-beats.server";
import { READING_REQUESTS_PER_MINUTE } from "~/modules/deck-reading/reading-rules";
import { readJsonBody } from "./json-body";

const TOO_MANY = "Too many requests from this browser. Please wait a minute.";

/**
 * POST /api/deck-reading: the deck reader's beats (decision 99), answered by Express directly as track-scan is
 * (every open reader sends one every few seconds). 200 with each beat's outcome when any was recorded or already
 * was; when every beat was refused, the first refusal's status. The phone forgets a beat once it is answered
 * with anything but a 5xx or a 429.
 */
export function deckReadingEndpoint(services: Pick<AppServices, "pageDoor" | "auth" | "database" | "alerts">): RequestHandler[] {
  const perViewer = new InMemoryWindowLimit({ windowSeconds: 60, max: READING_REQUESTS_PER_MINUTE });
  const handle: RequestHandler = async (req, res) => {
    const logger = (res.locals as { logger: Logger }).logger;
    const input = readJsonBody(req, res, deckReadingSchema);
    if (!input) return;
    try {
      const user = await getSessionUserByCookie(services.auth, req.headers.cookie);
      const request = { cookieHeader: req.headers.cookie, userAgent: req.get("user-agent"), clientAddress: clientIpOf(req), sessionUserId: user?.id ?? null };
      if (!perViewer.take(beatCeilingKey(services.pageDoor, request))) {
        return void res.status(429).set("Retry-After", String(perViewer.secondsLeft())).json({ error: TOO_MANY });
      }
      const outcomes = await recordDeckBeats(services.database.db, input.beats, beatSenderOf({ db: services.database.db, pageDoor: services.pageDoor }, request));
      services.alerts.wake();
      const refusal = outcomes.find(isRefusal);
      res.status(refusal && outcomes.every(isRefusal) ? BEAT_REFUSAL_STATUS[refusal] : 200).json({ outcomes });
    } catch (error) {
      logger.error({ err: error }, "deck reading could not be recorded");
      res.status(500).json({ error: "Something went wrong. Please try again." });
    }
  };
  return [handle];
}
