import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedWebhook = { headers: http.IncomingHttpHeaders; body: string; receivedAt: number };

/** What a test receiver does with a request: answer it, or `"hang"`: never answer, holding the connection open. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | "hang";

/**
 * A webhook receiver for tests, listening on 127.0.0.1 only. `answer` decides each response (default 200);
 * every request is kept in `received`. `open` counts the requests it holds unanswered (a hanging receiver's) whose
 * sender has not given up yet; `close` cuts them.
 */
export async function startWebhookReceiver(answer: (request: ReceivedWebhook, index: number) => ReceiverAnswer = () => ({ status: 200 })) {
  const received: ReceivedWebhook[] = [];
  const waiters: (() => void)[] = [];
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), receivedAt: performance.now() };
      received.push(entry);
      const decision = answer(entry, received.length - 1);
      if (decision === "hang") {
        held.add(response);
        response.on("close", () => held.delete(response));
      } else {
        response.writeHead(decision.status, decision.headers).end("ok");
      }
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/pitchqr`,
    port,
    received,
    /** Resolves once `count` requests arrived, or rejects after `timeoutMs`. */
    async waitFor(count: number, timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received.slice(0, count);
    },
    /** Requests held unanswered whose connection is still open. */
    get open() {
      return held.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What a receiver should do: recompute the HMAC over `timestamp.body` and compare in constant time. */
export function hasValidSignature(webhook: ReceivedWebhook, secret: string): boolean {
  const timestamp = String(webhook.headers["x-pitchqr-timestamp"] ?? "");
  const signature = String(webhook.headers["x-pitchqr-signature"] ?? "");
  const expected = `sha256=${crypto.createHmac("sha256", secret).update(`${timestamp}.${webhook.body}`).digest("hex")}`;
  return signature.length === expected.length && crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}
