/**
 * The open Server-Sent Event streams of this process, so shutdown can end them: a stream never ends by
 * itself, and the HTTP server waits for every open response before it closes. Each stream is counted against
 * the network address that opened it, so one address cannot hold an unbounded number open.
 */
export class LiveStreams {
  readonly #closers = new Set<() => void>();
  readonly #perAddress = new Map<string, number>();

  add(close: () => void, clientAddress = "unknown"): () => void {
    this.#closers.add(close);
    this.#perAddress.set(clientAddress, this.openFrom(clientAddress) + 1);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#closers.delete(close);
      const left = this.openFrom(clientAddress) - 1;
      if (left > 0) this.#perAddress.set(clientAddress, left);
      else this.#perAddress.delete(clientAddress);
    };
  }

  get size(): number {
    return this.#closers.size;
  }

  /** Streams this process holds open for one network address. */
  openFrom(clientAddress: string): number {
    return this.#perAddress.get(clientAddress) ?? 0;
  }

  closeAll(): void {
    for (const close of [...this.#closers]) close();
    this.#closers.clear();
    this.#perAddress.clear();
  }
}
