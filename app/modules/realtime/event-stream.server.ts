import { DomainError } from "~/modules/errors.server";
import type { LiveStreams } from "./live-streams.server";

/** Under the 15–30 s idle timeout of common proxies and load balancers, so none of them cuts a quiet stream. */
export const HEARTBEAT_MS = 15_000;

/**
 * Open live streams (walls and booth screens) per network address and instance. A venue puts hundreds of phones
 * behind one NAT, each with the pitch page's wall open (and a projector or two): 500 leaves room for a full hall,
 * while one script cannot hold thousands of connections (each a file descriptor, a subscription and a timer) open on
 * one instance.
 */
export const MAX_STREAMS_PER_ADDRESS = 500;
const STREAM_RETRY_AFTER_SECONDS = 30;

/** What a stream's owner writes with: events, and the end of the stream. */
export type EventStreamSink = {
  send(text: string): void;
  close(): void;
  readonly closed: boolean;
};

export type EventStreamOptions = {
  streams: LiveStreams;
  clientAddress: string;
  signal: AbortSignal;
  /** The refusal when the address already holds MAX_STREAMS_PER_ADDRESS streams on this instance. */
  tooManyMessage: string;
  /** Subscribes and sends what is due; returns what to undo when the stream ends. */
  start(sink: EventStreamSink): () => void;
  /** After each heartbeat comment. */
  onHeartbeat?(sink: EventStreamSink): void;
};

/**
 * A Server-Sent Events response: `retry: 1000`, a heartbeat comment every 15 s, and an end when the client goes
 * away, the owner closes it or the server shuts down (`LiveStreams`). The address's open streams are checked and
 * counted with no await between (the stream registers itself as it is constructed), so a burst of opens from one
 * address cannot all pass the check at once.
 */
export function openEventStream(options: EventStreamOptions): Response {
  const { streams, clientAddress, signal } = options;
  if (streams.openFrom(clientAddress) >= MAX_STREAMS_PER_ADDRESS) {
    throw new DomainError("rate_limited", options.tooManyMessage, {}, STREAM_RETRY_AFTER_SECONDS);
  }
  const encoder = new TextEncoder();
  let closed = false;
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const sink: EventStreamSink = {
        send(text) {
          if (!closed) controller.enqueue(encoder.encode(text));
        },
        close: () => cleanup(),
        get closed() {
          return closed;
        },
      };
      sink.send("retry: 1000\n\n");
      const stop = options.start(sink);
      const heartbeat = setInterval(() => {
        sink.send(": heartbeat\n\n");
        options.onHeartbeat?.(sink);
      }, HEARTBEAT_MS);
      heartbeat.unref();

      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        stop();
        unregister();
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      const unregister = streams.add(cleanup, clientAddress);
      signal.addEventListener("abort", cleanup, { once: true });
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform keeps the compression middleware from buffering the stream.
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
