/**
 * A fixed-window count per key held in this process's memory, for limits on endpoints too busy for a database
 * write per request (track-scan: every page view). Each instance counts on its own, so N instances allow up to
 * N times the allowance: a flood guard, not an exact quota. The map is emptied as each window begins.
 */
export class InMemoryWindowLimit {
  readonly #counts = new Map<string, number>();
  #window = -1;

  constructor(readonly rule: { windowSeconds: number; max: number }) {}

  /** Counts one hit against `key`; false once the key has used the current window's allowance. */
  take(key: string, now = Date.now()): boolean {
    const window = Math.floor(now / (this.rule.windowSeconds * 1000));
    if (window !== this.#window) {
      this.#window = window;
      this.#counts.clear();
    }
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    return count <= this.rule.max;
  }

  /** Seconds until the current window ends, for Retry-After. */
  secondsLeft(now = Date.now()): number {
    const windowMs = this.rule.windowSeconds * 1000;
    return Math.max(1, Math.ceil((windowMs - (now % windowMs)) / 1000));
  }
}
