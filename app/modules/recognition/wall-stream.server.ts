import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import type { Logger } from "~/modules/logging/logger.server";
import type { LiveStreams } from "~/modules/realtime/live-streams.server";
import type { ProjectEvents } from "~/modules/realtime/project-events.server";
import { ProjectFeeds, perEventSource, type ProjectFeed } from "~/modules/realtime/project-feeds.server";
import { countHiddenSupporters, readWallAfter, WALL_PAGE_SIZE, type PublicWallEntry } from "./wall.server";
import { isRecordId } from "~/modules/http/id-shape";
import { openEventStream } from "~/modules/realtime/event-stream.server";

type WallStreamDeps = { db: Kysely<Database>; events: ProjectEvents; streams: LiveStreams; logger: Logger };

/** How many of the latest entries a project's feed keeps for its walls; a wall further behind reads its own. */
const FEED_ENTRIES = 200;

type WallStats = { hiddenSupporters: number; signals: number };

/**
 * One project's live wall on this instance (decision 43): on each "wall" event it reads the entries numbered after
 * the last it read and the public counts, once, and each open wall sends from that what is past its own cursor.
 * `entries` holds every visible entry numbered in (`coveredFrom`, `lastSeq`], oldest first, with its event text.
 */
class WallFeed implements ProjectFeed {
  readonly walls = new Set<() => void>();
  entries: { seq: number; text: string }[] = [];
  coveredFrom: number;
  lastSeq: number;
  stats: string | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly projectId: string,
    /** A committed wall number: every entry up to it is committed too (decision "wall-sequence"). */
    startSeq: number,
  ) {
    this.coveredFrom = startSeq;
    this.lastSeq = startSeq;
  }

  async refresh(): Promise<void> {
    for (;;) {
      const page = await readWallAfter(this.db, this.projectId, this.lastSeq);
      for (const entry of page) {
        this.entries.push({ seq: entry.seq, text: entryEvent(entry) });
        this.lastSeq = entry.seq;
      }
      if (page.length < WALL_PAGE_SIZE) break;
    }
    if (this.entries.length > FEED_ENTRIES) {
      const dropped = this.entries.splice(0, this.entries.length - FEED_ENTRIES);
      this.coveredFrom = dropped[dropped.length - 1]!.seq;
    }
    const [hiddenSupporters, signals] = await Promise.all([countHiddenSupporters(this.db, this.projectId), countSignals(this.db, this.projectId)]);
    this.stats = `event: stats\ndata: ${JSON.stringify({ hiddenSupporters, signals } satisfies WallStats)}\n\n`;
    for (const push of this.walls) push();
  }
}

function entryEvent(entry: PublicWallEntry): string {
  return `id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`;
}

const wallFeeds = perEventSource(
  (deps: WallStreamDeps) =>
    new ProjectFeeds<WallFeed>(deps.events, {
      readWhenMade: true,
      wants: (event) => event.kind === "wall",
      onError: (error, projectId) => deps.logger.error({ err: error, projectId }, "wall stream read failed"),
    }),
);

/**
 * The Recognition Wall as Server-Sent Events (`openEventStream`): `entry` events (id = the entry's wall number,
 * `seq`) for entries numbered after the client's cursor (`Last-Event-ID` or `?after=`) and `stats` events with the
 * public counts. Wall numbers commit in order (decision "wall-sequence"), so a burst of events, several instances
 * or a reconnect never sends an entry twice or skips one. The reads are the project's feed's, shared by every open
 * wall of the project on this instance (decision 43); a wall whose cursor is older than what the feed keeps reads
 * the entries it missed itself, once. Only published projects stream.
 */
export async function openWallStream(
  deps: WallStreamDeps,
  projectId: string,
  cursor: number | null,
  signal: AbortSignal,
  clientAddress = "unknown",
): Promise<Response> {
  if (!isRecordId(projectId)) throw new DomainError("not_found", "Project not found");
  const project = await deps.db.selectFrom("projects").select(["id", "status", "wall_seq"]).where("id", "=", projectId).executeTakeFirst();
  if (!project || project.status !== "published") throw new DomainError("not_found", "Project not found");
  const latestSeq = Number(project.wall_seq);
  let lastSeq = cursor ?? latestSeq;
  let pending: Promise<void> = Promise.resolve();
  let pushQueued = false;

  return openEventStream({
    streams: deps.streams,
    clientAddress,
    signal,
    tooManyMessage: "Too many live walls open from your network. Please try again shortly.",
    start(sink) {
      // A feed made by this wall starts from the number it just read: every entry up to it is committed.
      const { feed, leave } = wallFeeds(deps).join(projectId, () => new WallFeed(deps.db, projectId, latestSeq));
      const sendNew = async () => {
        for (;;) {
          const covered = feed.coveredFrom;
          if (lastSeq >= covered) {
            for (const entry of feed.entries) {
              if (entry.seq <= lastSeq) continue;
              sink.send(entry.text);
              lastSeq = entry.seq;
            }
            return;
          }
          // Further behind than the feed keeps (a reconnect after a while): read what was missed, once.
          for (;;) {
            const entries = await readWallAfter(deps.db, projectId, lastSeq);
            for (const entry of entries) {
              sink.send(entryEvent(entry));
              lastSeq = entry.seq;
            }
            if (entries.length < WALL_PAGE_SIZE || sink.closed) break;
          }
          // Every entry up to `covered` had committed before that read began, so the read met all of them.
          lastSeq = Math.max(lastSeq, covered);
          if (sink.closed) return;
        }
      };
      // Pushes made while one waits to start add nothing: it sends everything the feed holds.
      const push = () => {
        if (pushQueued) return;
        pushQueued = true;
        pending = pending.then(async () => {
          pushQueued = false;
          if (sink.closed) return;
          try {
            await sendNew();
            if (feed.stats) sink.send(feed.stats);
          } catch (error) {
            deps.logger.error({ err: error, projectId }, "wall stream read failed");
          }
        });
      };
      feed.walls.add(push);
      // A feed that has read already: what it holds past this wall's cursor, now. A new one pushes when it has read.
      if (feed.stats) push();
      return () => {
        feed.walls.delete(push);
        leave();
      };
    },
  });
}

async function countSignals(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom("signals")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("project_id", "=", projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The resume cursor: the `Last-Event-ID` header a reconnecting EventSource sends, else `?after=`. */
export function parseCursor(request: Request): number | null {
  const raw = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after");
  if (raw === null || raw === "") return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= 0 ? value : null;
}
