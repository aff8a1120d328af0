import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import type { Logger } from "~/modules/logging/logger.server";
import type { LiveStreams } from "~/modules/realtime/live-streams.server";
import type { ProjectEvents } from "~/modules/realtime/project-events.server";
import { countHiddenSupporters, readWallAfter, WALL_PAGE_SIZE } from "./wall.server";
import { isRecordId } from "~/modules/http/id-shape";
import { openEventStream } from "~/modules/realtime/event-stream.server";

type WallStreamDeps = { db: Kysely<Database>; events: ProjectEvents; streams: LiveStreams; logger: Logger };

/**
 * The Recognition Wall as Server-Sent Events (`openEventStream`): `entry` events (id = the entry's wall number,
 * `seq`) for entries numbered after the client's cursor (`Last-Event-ID` or `?after=`) and `stats` events with the
 * public counts. Each project event triggers a read of every entry past the last one sent; wall numbers commit in order (decision "wall-sequence"), so a burst of events, several instances or a
 * reconnect never sends an entry twice or skips one. Only published projects stream.
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
  let lastSeq = cursor ?? Number(project.wall_seq);
  let pending: Promise<void> = Promise.resolve();
  let readQueued = false;

  return openEventStream({
    streams: deps.streams,
    clientAddress,
    signal,
    tooManyMessage: "Too many live walls open from your network. Please try again shortly.",
    start(sink) {
      // Events arriving while a read waits to start add nothing: that read will see what they announce.
      const pushNewEntries = () => {
        if (readQueued) return;
        readQueued = true;
        pending = pending.then(async () => {
          readQueued = false;
          if (sink.closed) return;
          try {
            for (;;) {
              const entries = await readWallAfter(deps.db, projectId, lastSeq);
              for (const entry of entries) {
                sink.send(`id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`);
                lastSeq = Math.max(lastSeq, entry.seq);
              }
              if (entries.length < WALL_PAGE_SIZE || sink.closed) break;
            }
            const [hiddenSupporters, signals] = await Promise.all([
              countHiddenSupporters(deps.db, projectId),
              countSignals(deps.db, projectId),
            ]);
            sink.send(`event: stats\ndata: ${JSON.stringify({ hiddenSupporters, signals })}\n\n`);
          } catch (error) {
            deps.logger.error({ err: error, projectId }, "wall stream read failed");
          }
        });
      };
      const unsubscribe = deps.events.subscribe(projectId, (event) => {
        if (event.kind === "wall") pushNewEntries();
      });
      // Also without a cursor: an entry committed between reading the counter and subscribing is sent now.
      pushNewEntries();
      return unsubscribe;
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
