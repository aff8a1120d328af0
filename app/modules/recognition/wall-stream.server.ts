import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import type { Logger } from "~/modules/logging/logger.server";
import type { LiveStreams } from "~/modules/realtime/live-streams.server";
import type { ProjectEvents } from "~/modules/realtime/project-events.server";
import { countHiddenSupporters, readWallAfter, WALL_PAGE_SIZE } from "./wall.server";
import { isRecordId } from "~/modules/http/id-shape";

/** Under the 15–30 s idle timeout of common proxies and load balancers, so none of them cuts a quiet wall. */
export const HEARTBEAT_MS = 15_000;

/**
 * Open wall streams per network address and instance. A venue puts hundreds of phones behind one NAT, each with
 * the pitch page's wall open (and a projector or two): 500 leaves room for a full hall, while one script cannot hold
 * thousands of connections (each a file descriptor, a subscription and a timer) open on one instance.
 */
export const MAX_STREAMS_PER_ADDRESS = 500;
const STREAM_RETRY_AFTER_SECONDS = 30;

type WallStreamDeps = { db: Kysely<Database>; events: ProjectEvents; streams: LiveStreams; logger: Logger };

/**
 * The Recognition Wall as Server-Sent Events: `entry` events (id = the entry's wall number, `seq`) for entries
 * numbered after the client's cursor (`Last-Event-ID` or `?after=`), `stats` events with the public counts, and
 * a heartbeat comment every 15 s. Each project event triggers a read of every entry past the last one sent;
 * wall numbers commit in order (decision "wall-sequence"), so a burst of events, several instances or a
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
  // Checked and counted with no await between (the stream registers itself as it is constructed), so a burst of
  // opens from one address cannot all pass the check at once.
  if (deps.streams.openFrom(clientAddress) >= MAX_STREAMS_PER_ADDRESS) {
    throw new DomainError("rate_limited", "Too many live walls open from your network. Please try again shortly.", {}, STREAM_RETRY_AFTER_SECONDS);
  }

  let lastSeq = cursor ?? Number(project.wall_seq);
  const encoder = new TextEncoder();
  let closed = false;
  let pending: Promise<void> = Promise.resolve();
  let readQueued = false;
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      // Events arriving while a read waits to start add nothing: that read will see what they announce.
      const pushNewEntries = () => {
        if (readQueued) return;
        readQueued = true;
        pending = pending.then(async () => {
          readQueued = false;
          if (closed) return;
          try {
            for (;;) {
              const entries = await readWallAfter(deps.db, projectId, lastSeq);
              for (const entry of entries) {
                send(`id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`);
                lastSeq = Math.max(lastSeq, entry.seq);
              }
              if (entries.length < WALL_PAGE_SIZE || closed) break;
            }
            const [hiddenSupporters, signals] = await Promise.all([
              countHiddenSupporters(deps.db, projectId),
              countSignals(deps.db, projectId),
            ]);
            send(`event: stats\ndata: ${JSON.stringify({ hiddenSupporters, signals })}\n\n`);
          } catch (error) {
            deps.logger.error({ err: error, projectId }, "wall stream read failed");
          }
        });
      };

      send("retry: 1000\n\n");
      const unsubscribe = deps.events.subscribe(projectId, (event) => {
        if (event.kind === "wall") pushNewEntries();
      });
      // Also without a cursor: an entry committed between reading the counter and subscribing is sent now.
      pushNewEntries();
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), HEARTBEAT_MS);
      heartbeat.unref();

      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        unregister();
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      const unregister = deps.streams.add(cleanup, clientAddress);
      signal.addEventListener("abort", cleanup, { once: true });
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform keeps the compression middleware from buffering the stream.
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
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
