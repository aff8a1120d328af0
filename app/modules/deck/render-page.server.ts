import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import sharp from "sharp";
import { DeckRefusal } from "./deck-refusal.server";
import type { DeckImageFormat } from "./deck-keys";
import { DECK_FALLBACK_WIDTH, DECK_PAGE_MAX_HEIGHT, DECK_PAGE_TEXT_MAX, DECK_PAGE_WIDTHS, type DeckPageWidth } from "./deck-rules";

/** One page as the phone gets it: its shape, its text, the WebP at each width and the JPEG fallback. */
export type RenderedPage = {
  width: number;
  height: number;
  text: string;
  images: { width: DeckPageWidth; format: DeckImageFormat; bytes: Buffer }[];
};

const WIDEST = DECK_PAGE_WIDTHS[DECK_PAGE_WIDTHS.length - 1]!;

type CanvasAndContext = { canvas: { width: number; height: number }; context: CanvasRenderingContext2D };
type CanvasFactory = { create(width: number, height: number): CanvasAndContext; destroy(pair: CanvasAndContext): void };

/**
 * Draws one page once, at 1600 px wide (or less, to keep a tall page within 2,400 px), on white, and encodes it
 * as WebP at each width and as JPEG at the fallback width. A page pdf.js cannot draw is refused with its number.
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
    const drawn = () => sharp(pixels, { raw: { width, height, channels: 4 } });
    const images: RenderedPage["images"] = [];
    for (const target of DECK_PAGE_WIDTHS) {
      const bytes = await drawn().resize({ width: Math.min(target, width) }).webp({ quality: 75, effort: 4 }).toBuffer();
      images.push({ width: target, format: "webp", bytes });
    }
    const fallback = await drawn()
      .resize({ width: Math.min(DECK_FALLBACK_WIDTH, width) })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 75, mozjpeg: true })
      .toBuffer();
    images.push({ width: DECK_FALLBACK_WIDTH, format: "jpg", bytes: fallback });
    return { width, height, text: await pageText(page), images };
  } catch (error) {
    if (error instanceof DeckRefusal) throw error;
    throw new DeckRefusal("page_failed", { page: pageNumber });
  } finally {
    if (pair) factory.destroy(pair);
    page.cleanup();
  }
}

/** The page's text in reading order, one space between runs, cut at DECK_PAGE_TEXT_MAX characters. */
async function pageText(page: PDFPageProxy): Promise<string> {
  const content = await page.getTextContent();
  let text = "";
  for (const item of content.items) {
    if (!("str" in item)) continue;
    text += item.str + (item.hasEOL ? " " : "");
    if (text.length > DECK_PAGE_TEXT_MAX * 2) break;
  }
  const words = text.replace(/\s+/g, " ").trim();
  return words.length <= DECK_PAGE_TEXT_MAX ? words : `${words.slice(0, DECK_PAGE_TEXT_MAX - 1).trimEnd()}…`;
}
