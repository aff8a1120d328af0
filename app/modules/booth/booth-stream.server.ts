import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { countProjectActivitySince, type CountsSince } from "~/modules/analytics/analytics.server";
import { DomainError } from "~/modules/errors.server";
import type { Logger } from "~/modules/logging/logger.server";
import type { LiveStreams } from "~/modules/realtime/live-streams.server";
import type { ProjectEvents } from "~/modules/realtime/project-events.server";
import { openEventStream, type EventStreamSink } from "~/modules/realtime/event-stream.server";
import { isBoothLinkActive } from "./booth-links.server";
import { ProjectFeeds, perEventSource, type ProjectFeed } from "~/modules/realtime/project-feeds.server";
import { BOOTH_NOT_FOUND, boothCodeFor, nextTickerSettle, readTickerSince, type BoothViewer } from "./booth.server";
import { TICKER_OVERLAP_MS, TickerTracker, type TickerItem } from "./booth-ticker";

type BoothStreamDeps = { db: Kysely<Database>; events: ProjectEvents; streams: LiveStreams; logger: Logger };

type BoothScreenFeed = { today: string; push: () => void };

/** How many of its latest reads a project's booth feed keeps for screens that have not sent them yet. */
const FEED_READS = 20;

/**
 * One project's booth screens on this instance (decision 43): on each "activity" or "wall" event it reads the ticker
 * since its newest item (less the overlap) and today's counters for each day start its screens use (one per time
 * zone in the room, usually one), once; each screen sends from that what it has not sent.
 */
class BoothFeed implements ProjectFeed {
  readonly screens = new Set<BoothScreenFeed>();
  /** The latest reads' items, oldest first, numbered; a screen further behind reads its own. */
  readonly reads: { number: number; items: TickerItem[] }[] = [];
  readsDone = 0;
  readonly counters = new Map<string, CountsSince>();
  #newest: string;
  #settleTimer: { at: number; timer: NodeJS.Timeout } | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly projectId: string,
    now: Date,
    /** Asks for a refresh through the feed's queue. */
    private readonly wake: () => void,
  ) {
    this.#newest = now.toISOString();
  }

  /**
   * A form written in the last seconds reaches the ticker once it settles (TICKER_SETTLE_MS, decision 95), with no
   * event to say so: the feed reads again then.
   */
  async readWhenSettled(): Promise<void> {
    const next = await nextTickerSettle(this.db, this.projectId);
    if (next === null || (this.#settleTimer && this.#settleTimer.at <= next)) return;
    if (this.#settleTimer) clearTimeout(this.#settleTimer.timer);
    const timer = setTimeout(
      () => {
        this.#settleTimer = null;
        this.wake();
      },
      Math.max(0, next - Date.now()) + 20,
    );
    timer.unref();
    this.#settleTimer = { at: next, timer };
  }

  async refresh(): Promise<void> {
    const from = new Date(Date.parse(this.#newest) - TICKER_OVERLAP_MS).toISOString();
    const days = [...new Set([...this.screens].map((screen) => screen.today))];
    const [items, ...counters] = await Promise.all([
      readTickerSince(this.db, this.projectId, from),
      ...days.map((day) => countProjectActivitySince(this.db, this.projectId, new Date(day))),
    ]);
    this.readsDone += 1;
    this.reads.push({ number: this.readsDone, items });
    if (this.reads.length > FEED_READS) this.reads.shift();
    for (const item of items) if (item.at > this.#newest) this.#newest = item.at;
    this.counters.clear();
    days.forEach((day, index) => this.counters.set(day, counters[index]!));
    for (const screen of this.screens) screen.push();
    await this.readWhenSettled();
  }
}

const boothFeeds = perEventSource(
  (deps: BoothStreamDeps) =>
    new ProjectFeeds<BoothFeed>(deps.events, {
      readWhenMade: false,
      wants: (event) => event.kind === "activity" || event.kind === "wall",
      onError: (error, projectId) => deps.logger.error({ err: error, projectId }, "booth stream read failed"),
    }),
);

/**
 * One booth screen's live data as Server-Sent Events (decision 35): `counters` (today's figures, as the
 * analytics page counts them) and `ticker` (new items; its id is the newest item's time, the resume cursor). The
 * screen reads once when it opens (from its cursor, or the day's start); after that the project's feed reads on each
 * "activity" or "wall" event, once for every screen on this instance (decision 43), and the screen sends what it has
 * not sent: every intro and signal, scans summarised per batch (`TickerTracker`). A booth link's stream is ended with
 * an `ended` event as soon as the link is revoked (the "booth" event) or found ended at a heartbeat.
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
  const tracker = new TickerTracker(cursor);
  let pending: Promise<void> = Promise.resolve();
  let pushQueued = false;
  /** The feed's reads up to this number are sent (or were covered by this screen's own read). */
  let readsSent = 0;

  const queue = (sink: EventStreamSink, work: () => Promise<void> | void) => {
    pending = pending.then(async () => {
      if (sink.closed) return;
      try {
        await work();
      } catch (error) {
        deps.logger.error({ err: error, projectId }, "booth stream read failed");
      }
    });
  };
  const send = (sink: EventStreamSink, items: readonly TickerItem[], counters: CountsSince | undefined) => {
    const fresh = tracker.fresh(items);
    if (fresh.length) sink.send(`id: ${tracker.newest}\nevent: ticker\ndata: ${JSON.stringify(fresh)}\n\n`);
    if (counters) sink.send(`event: counters\ndata: ${JSON.stringify(counters)}\n\n`);
  };
  const endIfLinkEnded = (sink: EventStreamSink) =>
    queue(sink, async () => {
      if (viewer.kind !== "link" || (await isBoothLinkActive(deps.db, viewer.linkId))) return;
      sink.send(`event: ended\ndata: {}\n\n`);
      sink.close();
    });
  /** A link changed (revoked or re-pointed): a link's screen ends, or shows the code the link now names. */
  const followLink = (sink: EventStreamSink) => {
    endIfLinkEnded(sink);
    if (viewer.kind !== "link") return;
    queue(sink, async () => {
      sink.send(`event: code\ndata: ${JSON.stringify({ codeId: await boothCodeFor(deps.db, projectId, viewer) })}\n\n`);
    });
  };

  return openEventStream({
    streams: deps.streams,
    clientAddress,
    signal,
    tooManyMessage: "Too many live screens open from your network. Please try again shortly.",
    start(sink) {
      const feeds = boothFeeds(deps);
      let made = false;
      const { feed, leave } = feeds.join(projectId, () => {
        made = true;
        return new BoothFeed(deps.db, projectId, new Date(), () => feeds.refresh(projectId));
      });
      const screen: BoothScreenFeed = {
        today: today.toISOString(),
        // Pushes made while one waits to start add nothing: it sends the feed's latest read.
        push: () => {
          if (pushQueued) return;
          pushQueued = true;
          queue(sink, async () => {
            pushQueued = false;
            const unsent = feed.reads.filter((read) => read.number > readsSent);
            if (unsent.length > 0 && unsent[0]!.number > readsSent + 1) {
              // Behind what the feed keeps (a screen held up): its own read of the window brings it up to date.
              readsSent = feed.readsDone;
              send(sink, await readTickerSince(deps.db, projectId, tracker.readFrom(today)), undefined);
            } else {
              for (const read of unsent) send(sink, read.items, undefined);
              readsSent = feed.readsDone;
            }
            const counters = feed.counters.get(screen.today);
            if (counters) sink.send(`event: counters\ndata: ${JSON.stringify(counters)}\n\n`);
          });
        },
      };
      // Joined first, read second: what the feed reads from now on, this screen hears of; what came before, it reads.
      feed.screens.add(screen);
      queue(sink, async () => {
        readsSent = feed.readsDone;
        // A new feed looks once for forms written before it that are still on their way to the ticker; after
        // that, each write's event makes it look again.
        if (made) await feed.readWhenSettled();
        const [items, counters] = await Promise.all([readTickerSince(deps.db, projectId, tracker.readFrom(today)), countProjectActivitySince(deps.db, projectId, today)]);
        send(sink, items, counters);
      });
      const unsubscribe = deps.events.subscribe(projectId, (event) => {
        if (event.kind === "booth") followLink(sink);
      });
      return () => {
        unsubscribe();
        feed.screens.delete(screen);
        leave();
      };
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
