/**
 * Work done in passes (draining the mail outbox or webhook deliveries, sending a scheduled digest): one pass at
 * a time, started on demand (`wake`) and every `intervalMs`; `stop` signals the pass in progress (a long pass
 * checks the signal between its batches and ends early) and waits for it.
 */
export abstract class RecurringPass<T> {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<T> | null = null;
  #stopping = new AbortController();

  /** One pass; `stopping` is aborted when the app stops. */
  protected abstract pass(stopping: AbortSignal): Promise<T>;

  /** Told when a pass started by `wake` or the timer failed (a pass from `runOnce` rejects to its caller). */
  protected abstract passFailed(error: unknown): void;

  /** One pass (joining the one in progress); resolves with what it did. */
  runOnce(): Promise<T> {
    if (!this.#running && this.#stopping.signal.aborted) this.#stopping = new AbortController();
    this.#running ??= this.pass(this.#stopping.signal).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  start(intervalMs = 5_000): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.wake(), intervalMs);
    this.#timer.unref();
  }

  /** Starts a pass now, without waiting for it. */
  wake(): void {
    void this.runOnce().catch((error: unknown) => this.passFailed(error));
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#stopping.abort();
    await this.#running?.catch(() => undefined);
  }
}
