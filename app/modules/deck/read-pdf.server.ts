import { createRequire } from "node:module";
import path from "node:path";
import { getDocument, VerbosityLevel, type PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { DeckRefusal } from "./deck-refusal.server";
import { DECK_MAX_BYTES, DECK_MAX_PAGES, looksLikePdf } from "./deck-rules";

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));

/**
 * pdf.js reads its fonts, character maps and colour profiles from its own package, never the network. Without the
 * standard fonts, text set in a font the PDF does not embed (Helvetica, Times) would vanish on a server with no
 * system fonts.
 */
const LOCAL_ASSETS = {
  standardFontDataUrl: `${path.join(pdfjsRoot, "standard_fonts")}/`,
  cMapUrl: `${path.join(pdfjsRoot, "cmaps")}/`,
  wasmUrl: `${path.join(pdfjsRoot, "wasm")}/`,
  iccUrl: `${path.join(pdfjsRoot, "iccs")}/`,
};

/** An image above this many pixels fails its page instead of being decoded: no decompression bomb. */
const MAX_IMAGE_PIXELS = 50_000_000;

/**
 * Opens a PDF to render it, or refuses it: not a PDF by its content, over 50 MB, protected by a password to open,
 * damaged, or over 60 pages. A PDF with only an owner password (no editing, no printing) opens as any other.
 */
export async function openDeckPdf(bytes: Uint8Array): Promise<{ pdf: PDFDocumentProxy; pageCount: number }> {
  if (bytes.byteLength > DECK_MAX_BYTES) throw new DeckRefusal("too_large");
  if (!looksLikePdf(bytes)) throw new DeckRefusal("not_pdf");
  let pdf: PDFDocumentProxy;
  try {
    pdf = await getDocument({
      data: new Uint8Array(bytes),
      ...LOCAL_ASSETS,
      isEvalSupported: false,
      maxImageSize: MAX_IMAGE_PIXELS,
      // A page whose content pdf.js cannot fully parse fails to render, instead of rendering what it could.
      stopAtErrors: true,
      verbosity: VerbosityLevel.ERRORS,
    }).promise;
  } catch (error) {
    if ((error as { name?: string }).name === "PasswordException") throw new DeckRefusal("encrypted");
    throw new DeckRefusal("damaged");
  }
  if (pdf.numPages > DECK_MAX_PAGES) {
    await pdf.destroy();
    throw new DeckRefusal("too_many_pages", { pages: pdf.numPages });
  }
  return { pdf, pageCount: pdf.numPages };
}
