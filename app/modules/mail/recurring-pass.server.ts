/**
 * Work done in passes (draining the mail outbox or webhook deliveries, sending a scheduled digest): one pass at
 * a time, started on demand (`wake`) and every `intervalMs`; `stop` signals the pass in progress (a long pass
 * checks the signal between its batches and ends early) and waits for it.
 */
export class RecurringPass<T> {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<T> | null = null;
  #stopping = new AbortController();

  constructor(
    private readonly pass: (stopping: AbortSignal) => Promise<T>,
    private readonly onError: (error: unknown) => void,
  ) {}

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
    void this.runOnce().catch(this.onError);
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#stopping.abort();
    await this.#running?.catch(() => undefined);
  }
}
