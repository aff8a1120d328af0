import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { countProjectActivitySince } from "~/modules/analytics/analytics.server";
import { DomainError } from "~/modules/errors.server";
import type { Logger } from "~/modules/logging/logger.server";
import type { LiveStreams } from "~/modules/realtime/live-streams.server";
import type { ProjectEvents } from "~/modules/realtime/project-events.server";
import { openEventStream, type EventStreamSink } from "~/modules/realtime/event-stream.server";
import { isBoothLinkActive } from "./booth-links.server";
import { BOOTH_NOT_FOUND, readTickerSince, type BoothViewer } from "./booth.server";

type BoothStreamDeps = { db: Kysely<Database>; events: ProjectEvents; streams: LiveStreams; logger: Logger };

/**
 * Rows commit a moment after the time they carry (a scan batch stamps its rows before it writes them), so each
 * read looks this far back before the newest item sent and drops the ids it already sent.
 */
const OVERLAP_MS = 5_000;

/**
 * One booth screen's live data as Server-Sent Events (decision 35): `counters` (today's figures, as the
 * analytics page counts them) and `ticker` (new items; its id is the newest item's time, the resume cursor), reread
 * on each "activity" or "wall" event of the project. A booth link's stream is ended with an `ended` event as
 * soon as the link is revoked (the "booth" event) or found ended at a heartbeat.
 */
export async function openBoothStream(
  deps: BoothStreamDeps,
  viewer: BoothViewer,
  projectId: string,
  today: Date,
  cursor: string | null,
  signal: AbortSignal,
  clientAddress = "unknown",
): Promise<Response> {
  if (viewer.kind === "link" && !(await isBoothLinkActive(deps.db, viewer.linkId))) throw new DomainError("not_found", BOOTH_NOT_FOUND);
  let newestAt = cursor;
  const sent = new Map<string, string>();
  let pending: Promise<void> = Promise.resolve();
  let readQueued = false;

  const queue = (sink: EventStreamSink, work: () => Promise<void>) => {
    pending = pending.then(async () => {
      if (sink.closed) return;
      try {
        await work();
      } catch (error) {
        deps.logger.error({ err: error, projectId }, "booth stream read failed");
      }
    });
  };
  const endIfLinkEnded = (sink: EventStreamSink) =>
    queue(sink, async () => {
      if (viewer.kind !== "link" || (await isBoothLinkActive(deps.db, viewer.linkId))) return;
      sink.send(`event: ended\ndata: {}\n\n`);
      sink.close();
    });

  return openEventStream({
    streams: deps.streams,
    clientAddress,
    signal,
    tooManyMessage: "Too many live screens open from your network. Please try again shortly.",
    start(sink) {
      // Events arriving while a read waits to start add nothing: that read will see what they announce.
      const pushNews = () => {
        if (readQueued) return;
        readQueued = true;
        queue(sink, async () => {
          readQueued = false;
          const from = newestAt ? new Date(Date.parse(newestAt) - OVERLAP_MS).toISOString() : today.toISOString();
          const [items, counters] = await Promise.all([readTickerSince(deps.db, projectId, from), countProjectActivitySince(deps.db, projectId, today)]);
          // After a reconnect, what the client had is everything up to its cursor: nothing at or before it again.
          const fresh = items.filter((item) => !sent.has(item.id) && (cursor === null || item.at > cursor));
          for (const item of fresh) {
            sent.set(item.id, item.at);
            if (!newestAt || item.at > newestAt) newestAt = item.at;
          }
          for (const [id, at] of sent) if (newestAt && Date.parse(at) < Date.parse(newestAt) - OVERLAP_MS) sent.delete(id);
          if (fresh.length) sink.send(`id: ${newestAt}\nevent: ticker\ndata: ${JSON.stringify(fresh)}\n\n`);
          sink.send(`event: counters\ndata: ${JSON.stringify(counters)}\n\n`);
        });
      };

      const unsubscribe = deps.events.subscribe(projectId, (event) => {
        if (event.kind === "activity" || event.kind === "wall") pushNews();
        else if (event.kind === "booth") endIfLinkEnded(sink);
      });
      pushNews();
      return unsubscribe;
    },
    // A revocation this instance missed, or an expiry, still ends the stream within a heartbeat.
    onHeartbeat: endIfLinkEnded,
  });
}

/** The resume cursor: the `Last-Event-ID` a reconnecting EventSource sends (an instant), else none. */
export function parseBoothCursor(request: Request): string | null {
  const raw = request.headers.get("last-event-id");
  if (!raw || raw.length > 40) return null;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? new Date(at).toISOString() : null;
}
