/** A page load a door counted, as one instance tells the others (decision 80): ids and a time, no visitor data. */
export type SharedPageLoad = { projectId: string; viewerFingerprint: string; at: number };

/**
 * The page loads other instances sharing the database counted at their door in the last seconds, as they told
 * this one when they queued them (before their scans are written): the speed check (decision 50) compares a form
 * with these as well as with `scans`, so a form reaching this instance a moment after its page was served by
 * another is compared with that page load. Bounded by age and by count; a load older than the speed check's
 * window holds nothing anyway.
 */
export class PageLoadsElsewhere {
  readonly #latest = new Map<string, number>();
  readonly #waiting = new Map<string, Set<(at: number) => void>>();

  constructor(
    private readonly keepMs = 10_000,
    private readonly maxEntries = 100_000,
  ) {}

  remember(loads: readonly SharedPageLoad[]): void {
    let newest = 0;
    for (const load of loads) {
      const key = keyOf(load.projectId, load.viewerFingerprint);
      this.#latest.delete(key);
      this.#latest.set(key, load.at);
      newest = Math.max(newest, load.at);
      for (const hear of this.#waiting.get(key) ?? []) hear(load.at);
    }
    // Oldest first (a Map keeps insertion order): what is out of the window goes, and the map stays bounded.
    for (const [key, at] of this.#latest) {
      if (this.#latest.size <= this.maxEntries && newest - at < this.keepMs) break;
      this.#latest.delete(key);
    }
  }

  /** When another instance last counted this browser's page load of the project (epoch ms), or null. */
  latest(projectId: string, viewerFingerprint: string): number | null {
    return this.#latest.get(keyOf(projectId, viewerFingerprint)) ?? null;
  }

  /** Resolves with the time of the next page load of this browser another instance tells of, or null after `timeoutMs`. */
  next(projectId: string, viewerFingerprint: string, timeoutMs: number): Promise<number | null> {
    const key = keyOf(projectId, viewerFingerprint);
    return new Promise((resolve) => {
      const waiters = this.#waiting.get(key) ?? new Set();
      this.#waiting.set(key, waiters);
      const done = (at: number | null) => {
        clearTimeout(timer);
        waiters.delete(hear);
        if (waiters.size === 0 && this.#waiting.get(key) === waiters) this.#waiting.delete(key);
        resolve(at);
      };
      const hear = (at: number) => done(at);
      const timer = setTimeout(() => done(null), timeoutMs);
      waiters.add(hear);
    });
  }
}

const keyOf = (projectId: string, viewerFingerprint: string) => `${projectId}:${viewerFingerprint}`;

/**
 * What a shared page-load message carries: the sending instance (which ignores its own) and its loads, each as
 * `[projectId, viewerFingerprint, at]`. Null when the payload is not one.
 */
export function readPageLoadMessage(payload: string): { from: string; loads: SharedPageLoad[] } | null {
  try {
    const message = JSON.parse(payload) as { from?: unknown; loads?: unknown };
    if (typeof message.from !== "string" || !Array.isArray(message.loads)) return null;
    const loads: SharedPageLoad[] = [];
    for (const entry of message.loads as unknown[]) {
      if (!Array.isArray(entry)) continue;
      const [projectId, viewerFingerprint, at] = entry as unknown[];
      if (typeof projectId === "string" && typeof viewerFingerprint === "string" && typeof at === "number") loads.push({ projectId, viewerFingerprint, at });
    }
    return { from: message.from, loads };
  } catch {
    return null;
  }
}

/** The messages that tell `loads` from instance `from`, each within PostgreSQL's 8,000-byte NOTIFY payload. */
export function pageLoadMessages(from: string, loads: readonly SharedPageLoad[]): string[] {
  const messages: string[] = [];
  for (let start = 0; start < loads.length; start += PAGE_LOADS_PER_MESSAGE) {
    const entries = loads.slice(start, start + PAGE_LOADS_PER_MESSAGE).map((load) => [load.projectId, load.viewerFingerprint, load.at]);
    messages.push(JSON.stringify({ from, loads: entries }));
  }
  return messages;
}

/** A load is at most about 120 bytes (a record id of up to 64 characters, a fingerprint of 32, a time): 60 fit. */
const PAGE_LOADS_PER_MESSAGE = 60;
