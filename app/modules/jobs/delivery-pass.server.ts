import { setMaxListeners } from "node:events";
import { RecurringPass } from "./recurring-pass.server";

/**
 * A worker's pass over claimed deliveries (alerts, webhook POSTs): up to `maxInFlight` at once, one at a time per
 * destination, claiming again as soon as one ends or `wake` says something new was queued. A pass answers how many
 * were delivered; it ends when nothing is in flight and nothing more is due.
 */
export abstract class DeliveryPass<Item> extends RecurringPass<number> {
  /** Wakes a pass waiting for its deliveries, to claim what a visitor just queued. */
  #nudge: (() => void) | null = null;
  #wakes = 0;

  constructor(protected readonly maxInFlight: number) {
    super();
  }

  /** Claims up to `room` due deliveries, none for a destination in `busy` (one in flight here already). */
  protected abstract claimDue(room: number, busy: ReadonlySet<string>): Promise<Item[]>;
  /** The destination a delivery goes to: one delivery per destination is in flight at a time. */
  protected abstract destinationOf(item: Item): string;
  /** Makes one delivery; answers whether it was delivered. */
  protected abstract deliver(item: Item, stopping: AbortSignal): Promise<boolean>;

  /** Starts a pass, or makes the one in progress look for due deliveries now rather than after those in flight. */
  override wake(): void {
    this.#wakes += 1;
    const nudge = this.#nudge;
    this.#nudge = null;
    nudge?.();
    super.wake();
  }

  protected async pass(stopping: AbortSignal): Promise<number> {
    // Every delivery in flight listens on the one stop signal until it is over.
    setMaxListeners(this.maxInFlight + 4, stopping);
    let delivered = 0;
    const inFlight = new Set<Promise<void>>();
    const busy = new Set<string>();
    let lookAgain = true;
    for (;;) {
      if (lookAgain && !stopping.aborted && inFlight.size < this.maxInFlight) {
        lookAgain = false;
        const wakes = this.#wakes;
        const batch = await this.claimDue(this.maxInFlight - inFlight.size, busy);
        for (const item of batch) {
          const destination = this.destinationOf(item);
          busy.add(destination);
          const delivery: Promise<void> = this.deliver(item, stopping)
            .then((sent) => {
              if (sent) delivered += 1;
            })
            .catch((error: unknown) => this.passFailed(error))
            .finally(() => {
              busy.delete(destination);
              inFlight.delete(delivery);
              // Its destination may have more due, also when this ends while a claim is running.
              lookAgain = true;
            });
          inFlight.add(delivery);
        }
        // More destinations may have due deliveries, or a visitor queued one while this claim ran.
        if (batch.length > 0 || this.#wakes !== wakes) lookAgain = true;
        if (lookAgain && inFlight.size < this.maxInFlight) continue;
      }
      if (inFlight.size === 0) {
        if (lookAgain && !stopping.aborted) continue;
        return delivered;
      }
      // A finished delivery frees its destination and a slot; a wake brings new deliveries.
      await Promise.race([...inFlight, new Promise<void>((resolve) => (this.#nudge = resolve))]);
      this.#nudge = null;
      lookAgain = true;
    }
  }
}
