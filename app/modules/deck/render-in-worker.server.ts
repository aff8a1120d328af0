import { Worker } from "node:worker_threads";
import type { RenderMessage, RenderRequest } from "./render-messages";

/**
 * Draws a deck in a worker thread started from `workerFile` (the server build's `deck-render-worker.js`), calling
 * `onMessage` for each message in order and waiting for each call before the next. Resolves once the worker is
 * done or has said why not; `signal` (the app stopping) ends the worker where it is.
 */
export async function renderInWorker(
  workerFile: URL,
  request: RenderRequest,
  onMessage: (message: RenderMessage) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  const worker = new Worker(workerFile);
  const stop = () => void worker.terminate();
  signal.addEventListener("abort", stop, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      let chain = Promise.resolve();
      let finished = false;
      worker.on("message", (message: RenderMessage) => {
        if (message.type !== "opened" && message.type !== "page") finished = true;
        chain = chain.then(() => onMessage(message));
        chain.catch(reject);
      });
      worker.once("error", reject);
      worker.once("exit", (code) => {
        if (finished) void chain.then(resolve, reject);
        else reject(new Error(signal.aborted ? "The deck's render was stopped" : `The deck's render worker ended with code ${code}`));
      });
      worker.postMessage(request, [request.pdf]);
    });
  } finally {
    signal.removeEventListener("abort", stop);
    await worker.terminate();
  }
}
