/**
 * The open Server-Sent Event streams of this process, so shutdown can end them: a stream never ends by
 * itself, and the HTTP server waits for every open response before it closes.
 */
export class LiveStreams {
  readonly #closers = new Set<() => void>();

  add(close: () => void): () => void {
    this.#closers.add(close);
    return () => void this.#closers.delete(close);
  }

  get size(): number {
    return this.#closers.size;
  }

  closeAll(): void {
    for (const close of [...this.#closers]) close();
    this.#closers.clear();
  }
}
