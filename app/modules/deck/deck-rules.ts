import type { DeckRefusalReason } from "~/db/schema";

/** What a deck may be, for the upload form and the server alike. */
export const DECK_MAX_BYTES = 50 * 1024 * 1024;
export const DECK_MAX_PAGES = 60;

/** Each page is kept at these widths (WebP); a phone at 390 CSS px and 2x density takes the 960 one. */
export const DECK_PAGE_WIDTHS = [480, 960, 1600] as const;
export type DeckPageWidth = (typeof DECK_PAGE_WIDTHS)[number];
/** The tallest a page is drawn, so a strip-shaped page cannot become a canvas of hundreds of megabytes. */
export const DECK_PAGE_MAX_HEIGHT = 2400;

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
