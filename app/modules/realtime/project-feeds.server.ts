import type { ProjectEvent, ProjectEvents } from "./project-events.server";

/** What one project's open streams on this instance share: one read per event, handed to each of them. */
export interface ProjectFeed {
  /** Reads what the project's latest events announced, once, and hands it to every stream of the feed. */
  refresh(): Promise<void>;
}

type Membership<F> = { feed: F; members: number; unsubscribe: () => void; chain: Promise<void>; queued: boolean };

/**
 * This instance's feeds, one per project that has an open stream (decision 43): an event of the project (from this
 * instance or, over LISTEN/NOTIFY, another) refreshes its feed once, whatever the number of open walls or booth
 * screens, instead of once per stream. Refreshes of one feed run one at a time; events that arrive while a refresh
 * waits to start add nothing (that refresh will see what they announce). A feed ends with its last stream.
 */
export class ProjectFeeds<F extends ProjectFeed> {
  readonly #feeds = new Map<string, Membership<F>>();

  constructor(
    private readonly events: ProjectEvents,
    private readonly options: {
      /** The events that make the feed read again. */
      wants(event: ProjectEvent): boolean;
      /**
       * Whether a new feed reads at once: events sent before it listened are not heard, so a feed whose streams do
       * not read for themselves when they open must (the wall's); the booth's screens read their own first window.
       */
      readWhenMade: boolean;
      onError(error: unknown, projectId: string): void;
    },
  ) {}

  /** Joins the project's feed, made by `create` if there is none; `leave` when the stream ends. */
  join(projectId: string, create: () => F): { feed: F; leave: () => void } {
    let membership = this.#feeds.get(projectId);
    if (!membership) {
      const created: Membership<F> = { feed: create(), members: 0, unsubscribe: () => {}, chain: Promise.resolve(), queued: false };
      created.unsubscribe = this.events.subscribe(projectId, (event) => {
        if (this.options.wants(event)) this.#refresh(projectId, created);
      });
      this.#feeds.set(projectId, created);
      membership = created;
      if (this.options.readWhenMade) this.#refresh(projectId, created);
    }
    const joined = membership;
    joined.members += 1;
    let left = false;
    return {
      feed: joined.feed,
      leave: () => {
        if (left) return;
        left = true;
        joined.members -= 1;
        if (joined.members > 0) return;
        joined.unsubscribe();
        if (this.#feeds.get(projectId) === joined) this.#feeds.delete(projectId);
      },
    };
  }

  /** Reads the project's feed again now (a feed's own timer: something it read is due to change), if it has one. */
  refresh(projectId: string): void {
    const membership = this.#feeds.get(projectId);
    if (membership) this.#refresh(projectId, membership);
  }

  /** Projects with a feed on this instance. */
  get size(): number {
    return this.#feeds.size;
  }

  #refresh(projectId: string, membership: Membership<F>): void {
    if (membership.queued) return;
    membership.queued = true;
    membership.chain = membership.chain.then(async () => {
      membership.queued = false;
      if (membership.members === 0) return;
      try {
        await membership.feed.refresh();
      } catch (error) {
        this.options.onError(error, projectId);
      }
    });
  }
}

/**
 * One value per event source, made from the first caller's dependencies: the event source is the instance's (one per
 * process in the app, a new one per test), so what hangs off it, such as an area's `ProjectFeeds`, is shared by
 * exactly that instance's streams without being threaded through every route.
 */
export function perEventSource<D extends { events: ProjectEvents }, T extends object>(make: (deps: D) => T): (deps: D) => T {
  const made = new WeakMap<ProjectEvents, T>();
  return (deps) => {
    let value = made.get(deps.events);
    if (!value) {
      value = make(deps);
      made.set(deps.events, value);
    }
    return value;
  };
}
