import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import sharp from "sharp";
import { DeckRefusal } from "./deck-refusal.server";
import { DECK_PAGE_MAX_HEIGHT, DECK_PAGE_WIDTHS, type DeckPageWidth } from "./deck-rules";

/** One page as the phone gets it: its shape, and the WebP at each width. */
export type RenderedPage = { width: number; height: number; images: { width: DeckPageWidth; bytes: Buffer }[] };

const WIDEST = DECK_PAGE_WIDTHS[DECK_PAGE_WIDTHS.length - 1]!;

type CanvasAndContext = { canvas: { width: number; height: number }; context: CanvasRenderingContext2D };
type CanvasFactory = { create(width: number, height: number): CanvasAndContext; destroy(pair: CanvasAndContext): void };

/**
 * Draws one page once, at 1600 px wide (or less, to keep a tall page within 2,400 px), on white, and encodes it
 * as WebP at each width. A page pdf.js cannot draw is refused with its number.
 */
export async function renderDeckPage(pdf: PDFDocumentProxy, pageNumber: number): Promise<RenderedPage> {
  const page = await pdf.getPage(pageNumber);
  const factory = (pdf as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  let pair: CanvasAndContext | undefined;
  try {
    const natural = page.getViewport({ scale: 1 });
    const scale = Math.min(WIDEST / natural.width, DECK_PAGE_MAX_HEIGHT / natural.height);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.round(viewport.width));
    const height = Math.max(1, Math.round(viewport.height));
    pair = factory.create(width, height);
    pair.context.fillStyle = "#ffffff";
    pair.context.fillRect(0, 0, width, height);
    await page.render({ canvas: pair.canvas as unknown as HTMLCanvasElement, canvasContext: pair.context, viewport }).promise;
    const pixels = Buffer.from(pair.context.getImageData(0, 0, width, height).data.buffer);
    const images = [];
    for (const target of DECK_PAGE_WIDTHS) {
      const bytes = await sharp(pixels, { raw: { width, height, channels: 4 } })
        .resize({ width: Math.min(target, width) })
        .webp({ quality: 75, effort: 4 })
        .toBuffer();
      images.push({ width: target, bytes });
    }
    return { width, height, images };
  } catch (error) {
    if (error instanceof DeckRefusal) throw error;
    throw new DeckRefusal("page_failed", { page: pageNumber });
  } finally {
    if (pair) factory.destroy(pair);
    page.cleanup();
  }
}
