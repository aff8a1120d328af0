import { EventEmitter } from "node:events";
import pg from "pg";
import type { Logger } from "~/modules/logging/logger.server";
import { pageLoadMessages, readPageLoadMessage, type SharedPageLoad } from "~/modules/scans/page-loads-elsewhere.server";

/**
 * "Something on this project changed": a new wall entry or signal count ("wall"), an edit ("content"), a committed
 * scan batch, intro or subscription ("activity", for booth screens), a booth link revoked ("booth").
 */
export type ProjectEvent = { projectId: string; kind: "wall" | "content" | "activity" | "booth" };
export type ProjectEventListener = (event: ProjectEvent) => void;
export type PageLoadsListener = (loads: SharedPageLoad[]) => void;

/**
 * Publishes an event announcing a write that has already committed, without failing the caller: a lost event only
 * delays the screens listening (they reread on the next one, or poll), so the failure is logged, not thrown.
 */
export async function announce(events: Pick<ProjectEvents, "publish">, logger: Logger, event: ProjectEvent): Promise<void> {
  await events.publish(event).catch((error: unknown) => logger.error({ err: error, projectId: event.projectId }, `could not publish ${event.kind} event`));
}

/** "ok", or "degraded" while events from other instances cannot arrive and open walls poll the database instead. */
export type RealtimeStatus = "ok" | "degraded";

export interface ProjectEvents {
  publish(event: ProjectEvent): Promise<void>;
  subscribe(projectId: string, listener: ProjectEventListener): () => void;
  /**
   * Tells the other instances the page loads this one's door just counted, before their scans are written
   * (decision 80); one process has nobody to tell. Its own are never delivered back to it.
   */
  sharePageLoads(loads: readonly SharedPageLoad[]): Promise<void>;
  /** Hears the page loads other instances shared. */
  onPageLoads(listener: PageLoadsListener): () => void;
  status(): RealtimeStatus;
  close(): Promise<void>;
}

const CHANNEL = "project_events";
const PAGE_LOADS_CHANNEL = "page_loads";
/** How the listener's connection shows in `pg_stat_activity`. */
export const LISTENER_APPLICATION_NAME = "pitchqr-project-events";
/** Waits before the 1st, 2nd, 3rd, … attempt to listen again; the last one repeats for as long as it takes. */
const RELISTEN_DELAYS_MS = [250, 1_000, 2_000, 5_000];
/** While the listener is down, every open wall rereads the database this often. */
const POLL_WHILE_DEGRADED_MS = 2_000;

/**
 * How the listener finds out that its connection died without a word (a NAT or firewall dropping it, no reset):
 * every `intervalMs` it asks PostgreSQL something over that connection, and an answer later than `deadlineMs`
 * counts as a lost connection. TCP keepalive alone would take the OS default, about two hours.
 */
export type ListenerHeartbeat = { intervalMs: number; deadlineMs: number };
const LISTENER_HEARTBEAT: ListenerHeartbeat = { intervalMs: 10_000, deadlineMs: 5_000 };

class LocalFanOut {
  readonly #emitter = new EventEmitter();
  constructor() {
    this.#emitter.setMaxListeners(0);
  }
  deliver(event: ProjectEvent) {
    this.#emitter.emit(event.projectId, event);
  }
  /** A "wall" event to every project someone is watching: they reread, and anything new arrives. */
  deliverToAll() {
    for (const projectId of this.#emitter.eventNames()) this.deliver({ projectId: String(projectId), kind: "wall" });
  }
  subscribe(projectId: string, listener: ProjectEventListener) {
    this.#emitter.on(projectId, listener);
    return () => void this.#emitter.off(projectId, listener);
  }
}

/** One process (the SQLite default): events go straight to this process's listeners. */
export function createLocalProjectEvents(): ProjectEvents {
  const fanOut = new LocalFanOut();
  return {
    async publish(event) {
      fanOut.deliver(event);
    },
    subscribe: (projectId, listener) => fanOut.subscribe(projectId, listener),
    async sharePageLoads() {},
    onPageLoads: () => () => undefined,
    status: () => "ok",
    async close() {},
  };
}

/**
 * Several instances on one PostgreSQL: events travel through LISTEN/NOTIFY, so a visitor connected to any
 * instance sees an entry written on any other. Payloads carry ids only, never visitor data.
 *
 * The listening connection can be lost (a restart, a failover, `pg_terminate_backend`, the network). Then one
 * loop, never two, listens again with growing waits and never gives up; meanwhile the status is "degraded" and
 * every open wall rereads the database every 2 s, so nothing is lost, only later. When listening again, every
 * open wall rereads once more (a notification sent while nobody listened is gone). The log says so once when
 * it goes down and once when it is back, not per attempt.
 */
export async function createPostgresProjectEvents(url: string, logger: Logger, heartbeat: ListenerHeartbeat = LISTENER_HEARTBEAT): Promise<ProjectEvents> {
  const fanOut = new LocalFanOut();
  const instance = crypto.randomUUID();
  const pageLoadListeners = new Set<PageLoadsListener>();
  // Kept open: page loads are shared through it as they come (decision 80), and a new connection costs more than a notify.
  const publisher = new pg.Pool({ connectionString: url, max: 2, idleTimeoutMillis: 0 });
  publisher.on("error", (error) => logger.warn({ err: error }, "idle project event publisher connection closed"));
  // As in app/db/client.server.ts: a connection lost mid-publish fails the publish; its "error" event must be heard.
  publisher.on("connect", (client) => client.on("error", () => undefined));
  let listener: pg.Client | null = null;
  let relistening = false;
  let degraded = false;
  let poll: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  let wakeFromWait: (() => void) | null = null;

  function connectListener(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: url,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: heartbeat.intervalMs,
      connectionTimeoutMillis: 10_000,
    });
    client.on("notification", (message) => {
      if (message.channel === PAGE_LOADS_CHANNEL) {
        const shared = readPageLoadMessage(message.payload ?? "");
        if (shared && shared.from !== instance) for (const listener of pageLoadListeners) listener(shared.loads);
        return;
      }
      try {
        const event = JSON.parse(message.payload ?? "") as ProjectEvent;
        if (typeof event.projectId === "string") fanOut.deliver(event);
      } catch {
        logger.warn({ payload: message.payload }, "ignored malformed project event");
      }
    });
    // A lost connection says so twice ("error", then "end"): both lead to the one loop below.
    client.on("error", (error) => lost(client, error));
    client.on("end", () => lost(client));
    return client
      .connect()
      .then(() => client.query(`listen ${CHANNEL}; listen ${PAGE_LOADS_CHANNEL}`))
      .then(() => client)
      .catch(async (error: unknown) => {
        await client.end().catch(() => undefined);
        throw error;
      });
  }

  function lost(client: pg.Client, error?: Error) {
    if (client !== listener || closed) return;
    listener = null;
    clearInterval(beating);
    void client.end().catch(() => undefined);
    // A silent connection would never finish ending: let its socket go now.
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    becomeDegraded(error);
    void listenAgain();
  }

  let beating: ReturnType<typeof setInterval> | undefined;
  /** Asks over the listening connection at every interval; no answer by the deadline means it is gone. */
  function startHeartbeat(client: pg.Client) {
    clearInterval(beating);
    beating = setInterval(() => {
      if (client !== listener) return;
      const deadline = setTimeout(() => lost(client, new Error(`no answer on the listener connection within ${heartbeat.deadlineMs} ms`)), heartbeat.deadlineMs);
      deadline.unref();
      // A failed query also ends the connection, which "error"/"end" report; the deadline only waits for silence.
      client.query("select 1").then(
        () => clearTimeout(deadline),
        () => clearTimeout(deadline),
      );
    }, heartbeat.intervalMs);
    beating.unref();
  }

  function becomeDegraded(error?: unknown) {
    if (degraded) return;
    degraded = true;
    logger.warn({ err: error }, "realtime degraded: lost the PostgreSQL listener connection; open walls poll the database until it is back");
    poll = setInterval(() => fanOut.deliverToAll(), POLL_WHILE_DEGRADED_MS);
    poll.unref();
  }

  function recovered() {
    if (!degraded) return;
    degraded = false;
    clearInterval(poll);
    logger.info("realtime recovered: listening to PostgreSQL again");
    fanOut.deliverToAll();
  }

  async function listenAgain(): Promise<void> {
    if (relistening) return;
    relistening = true;
    try {
      for (let attempt = 0; !closed; attempt += 1) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, RELISTEN_DELAYS_MS[Math.min(attempt, RELISTEN_DELAYS_MS.length - 1)]);
          wakeFromWait = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeFromWait = null;
        if (closed) return;
        try {
          const client = await connectListener();
          if (closed) {
            await client.end().catch(() => undefined);
            return;
          }
          listener = client;
          startHeartbeat(client);
          recovered();
          return;
        } catch (error) {
          logger.debug({ err: error, attempt: attempt + 1 }, "project event listener could not connect yet");
        }
      }
    } finally {
      relistening = false;
    }
  }

  try {
    listener = await connectListener();
    startHeartbeat(listener);
  } catch (error) {
    becomeDegraded(error);
    void listenAgain();
  }

  return {
    async publish(event) {
      await publisher.query("select pg_notify($1, $2)", [CHANNEL, JSON.stringify(event)]);
    },
    subscribe: (projectId, callback) => fanOut.subscribe(projectId, callback),
    async sharePageLoads(loads) {
      for (const message of pageLoadMessages(instance, loads)) await publisher.query("select pg_notify($1, $2)", [PAGE_LOADS_CHANNEL, message]);
    },
    onPageLoads(listener) {
      pageLoadListeners.add(listener);
      return () => void pageLoadListeners.delete(listener);
    },
    status: () => (degraded ? "degraded" : "ok"),
    async close() {
      closed = true;
      clearInterval(poll);
      clearInterval(beating);
      wakeFromWait?.();
      const client = listener;
      listener = null;
      await Promise.allSettled([client?.end(), publisher.end()]);
    },
  };
}
