/**
 * A queue drained in passes (the mail outbox, webhook deliveries): one pass at a time, started when a request
 * queued something (`wake`) and every `intervalMs` in case nothing did; `stop` waits for the pass in progress.
 */
export class RecurringPass {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;

  constructor(
    private readonly pass: () => Promise<number>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** One pass over what is due (joining the one in progress); resolves with how many items it handled. */
  runOnce(): Promise<number> {
    this.#running ??= this.pass().finally(() => {
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
    await this.#running?.catch(() => undefined);
  }
}
