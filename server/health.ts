import { monitorEventLoopDelay } from "node:perf_hooks";
import type { RequestHandler } from "express";
import { DatabaseUnanswered } from "~/db/postgres-pool.server";
import type { AppServices } from "~/services.server";
import type { Locals } from "./request-context";

/**
 * GET /healthz: 200 while the database answers, 503 when it does not, stored nowhere; both name the realtime path's
 * state and the event loop's worst delay since the last poll. `stop` ends the event loop monitor.
 */
export function healthCheck(services: AppServices): { handler: RequestHandler; stop: () => void } {
  // How long the event loop was held up at worst: a monitor reading it since the last /healthz sees any request
  // or job that froze the server between two polls, which the health check's own answer time would miss.
  const eventLoopDelay = monitorEventLoopDelay({ resolution: 10 });
  eventLoopDelay.enable();
  const takeEventLoopMaxDelayMs = () => {
    const maxMs = Math.round(eventLoopDelay.max / 1e5) / 10;
    eventLoopDelay.reset();
    return maxMs;
  };

  const handler: RequestHandler = async (_req, res) => {
    try {
      await services.database.ping();
      // A degraded realtime path still serves every page and delivers every wall entry, by polling: still 200.
      res
        .set("Cache-Control", "no-store")
        .json({ status: "ok", realtime: services.events.status(), eventLoopMaxDelayMs: takeEventLoopMaxDelayMs() });
    } catch (error) {
      // Answered within PING_TIMEOUT_MS even when the database's packets are dropped: pages that need it fail too.
      (res.locals as Locals).logger.error({ err: error }, "health check failed");
      res
        .status(503)
        .set("Cache-Control", "no-store")
        .json({
          status: "degraded",
          database: error instanceof DatabaseUnanswered ? "unanswered" : "failing",
          realtime: services.events.status(),
          eventLoopMaxDelayMs: takeEventLoopMaxDelayMs(),
        });
    }
  };
  return { handler, stop: () => eventLoopDelay.disable() };
}
