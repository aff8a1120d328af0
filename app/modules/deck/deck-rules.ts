import type { DeckRefusalReason } from "~/db/schema";

/** What a deck may be, for the upload form and the server alike. */
export const DECK_MAX_BYTES = 50 * 1024 * 1024;
export const DECK_MAX_PAGES = 60;

/**
 * Each page is kept as WebP at these widths: a 412 px phone at 2.6x density takes the 1080 one, a desktop the 1600
 * one; and once as JPEG at the middle width, for a browser without WebP.
 */
export const DECK_PAGE_WIDTHS = [640, 1080, 1600] as const;
export const DECK_FALLBACK_WIDTH = 1080;
export type DeckPageWidth = (typeof DECK_PAGE_WIDTHS)[number];
/** The tallest a page is drawn, so a strip-shaped page cannot become a canvas of hundreds of megabytes. */
export const DECK_PAGE_MAX_HEIGHT = 2400;

export const DECK_FILE_MISSING_MESSAGE = "Choose your deck's PDF to upload.";

/** A page's text is its image's alternative text, cut at this many characters. */
export const DECK_PAGE_TEXT_MAX = 1000;

export type { DeckRefusalReason } from "~/db/schema";

/** Why a file was not taken as the deck, in the words the founder reads. */
export function deckRefusalMessage(reason: DeckRefusalReason, detail: { pages?: number; page?: number } = {}): string {
  switch (reason) {
    case "not_pdf":
      return "This file is not a PDF. Export your deck as a PDF and upload that.";
    case "too_large":
      return "This PDF is over 50 MB. Export it with smaller images and upload it again.";
    case "encrypted":
      return "This PDF is protected with a password. Export it again without one and upload that.";
    case "damaged":
      return "This PDF is damaged and cannot be read. Export it again and upload the new file.";
    case "too_many_pages":
      return `This deck has ${detail.pages} pages; a deck may have at most ${DECK_MAX_PAGES}.`;
    case "page_failed":
      return `Page ${detail.page} could not be rendered. Export the deck again and upload the new file.`;
  }
}

/** True when the bytes are a PDF by their content: `%PDF-` within the first kilobyte, as PDF readers accept it. */
export function looksLikePdf(head: Uint8Array): boolean {
  const text = Buffer.from(head.subarray(0, 1024)).toString("latin1");
  return text.includes("%PDF-");
}
