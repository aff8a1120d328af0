import os from "node:os";
import { parentPort } from "node:worker_threads";
import sharp from "sharp";
import { DeckRefusal } from "./deck-refusal.server";
import { openDeckPdf } from "./read-pdf.server";
import { renderDeckPage } from "./render-page.server";
import type { RenderMessage, RenderRequest } from "./render-messages";

/**
 * The worker thread that draws a deck's pages, one deck per worker, so a render of seconds never holds the
 * request loop. It answers with messages (render-messages.ts); the page images are moved to the main thread.
 */
if (!parentPort) throw new Error("render-worker runs as a worker thread");
const port = parentPort;
sharp.concurrency(1);
// On Linux a thread's priority is its own (and the threads it starts inherit it): drawing yields the CPU to the
// request loop and the rest of the machine, and takes what is left over.
try {
  os.setPriority(10);
} catch {
  // Not allowed here: the worker draws at the process's priority.
}

port.once("message", (request: RenderRequest) => {
  void render(request).finally(() => port.close());
});

async function render({ pdf: bytes, fromPage }: RenderRequest) {
  const say = (message: RenderMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  try {
    const { pdf, pageCount } = await openDeckPdf(new Uint8Array(bytes));
    say({ type: "opened", pageCount });
    for (let page = fromPage; page <= pageCount; page += 1) {
      const drawn = await renderDeckPage(pdf, page);
      const images = drawn.images.map((image) => ({ width: image.width, format: image.format, bytes: toOwnBuffer(image.bytes) }));
      say({ type: "page", page, width: drawn.width, height: drawn.height, text: drawn.text, images }, images.map((image) => image.bytes));
    }
    await pdf.destroy();
    say({ type: "done" });
  } catch (error) {
    if (error instanceof DeckRefusal) say({ type: "refused", reason: error.reason, page: error.page });
    else say({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  }
}

/** A Buffer's bytes in an ArrayBuffer of their own, which can be moved to another thread. */
function toOwnBuffer(bytes: Buffer): ArrayBuffer {
  const own = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(own).set(bytes);
  return own;
}
