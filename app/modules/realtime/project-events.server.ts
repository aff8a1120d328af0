import { EventEmitter } from "node:events";
import pg from "pg";
import type { Logger } from "~/modules/logging/logger.server";

/** "Something on this project's public page changed": a new wall entry, a new signal count, an edit. */
export type ProjectEvent = { projectId: string; kind: "wall" | "content" };
export type ProjectEventListener = (event: ProjectEvent) => void;

export interface ProjectEvents {
  publish(event: ProjectEvent): Promise<void>;
  subscribe(projectId: string, listener: ProjectEventListener): () => void;
  close(): Promise<void>;
}

const CHANNEL = "project_events";

class LocalFanOut {
  readonly #emitter = new EventEmitter();
  constructor() {
    this.#emitter.setMaxListeners(0);
  }
  deliver(event: ProjectEvent) {
    this.#emitter.emit(event.projectId, event);
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
    async close() {},
  };
}

/**
 * Several instances on one PostgreSQL: events travel through LISTEN/NOTIFY, so a visitor connected to any
 * instance sees an entry written on any other. Payloads carry ids only, never visitor data.
 */
export async function createPostgresProjectEvents(url: string, logger: Logger): Promise<ProjectEvents> {
  const fanOut = new LocalFanOut();
  const publisher = new pg.Pool({ connectionString: url, max: 2 });
  let listener: pg.Client | null = null;
  let closed = false;

  async function connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    client.on("notification", (message) => {
      try {
        const event = JSON.parse(message.payload ?? "") as ProjectEvent;
        if (typeof event.projectId === "string") fanOut.deliver(event);
      } catch {
        logger.warn({ payload: message.payload }, "ignored malformed project event");
      }
    });
    client.on("error", (error) => {
      logger.error({ err: error }, "project event listener lost its connection; reconnecting");
      listener = null;
      if (!closed) setTimeout(() => void connectListener().catch(() => undefined), 1_000);
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    listener = client;
  }
  await connectListener();

  return {
    async publish(event) {
      await publisher.query("select pg_notify($1, $2)", [CHANNEL, JSON.stringify(event)]);
    },
    subscribe: (projectId, callback) => fanOut.subscribe(projectId, callback),
    async close() {
      closed = true;
      await Promise.allSettled([listener?.end(), publisher.end()]);
    },
  };
}
