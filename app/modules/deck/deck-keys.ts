import type { DeckPageWidth } from "./deck-rules";

/** A page's image: WebP at each width, JPEG once as the fallback. */
export type DeckImageFormat = "webp" | "jpg";

/**
 * Where a deck's files are kept: one folder per uploaded file, never rewritten (a new upload is a new deck with
 * a new folder), so each key may be cached for ever.
 */
export const deckFolder = (deckId: string) => `decks/${deckId}/`;
export const deckSourceKey = (deckId: string) => `decks/${deckId}/source.pdf`;
export const deckPageFile = (page: number, width: DeckPageWidth, format: DeckImageFormat) => `page-${page}-${width}.${format}`;
export const deckPageKey = (deckId: string, page: number, width: DeckPageWidth, format: DeckImageFormat) =>
  `${deckFolder(deckId)}${deckPageFile(page, width, format)}`;

/** The content type each of a deck's files is stored and served with. */
export const deckImageType = (format: DeckImageFormat) => (format === "webp" ? "image/webp" : "image/jpeg");
export const DECK_SOURCE_TYPE = "application/pdf";

/** A file name as the deck's address names it (`page-3-1080.webp`, `source.pdf`); anything else is not one. */
const FILE = /^(?:source\.pdf|page-([1-9][0-9]{0,2})-([0-9]{3,4})\.(webp|jpg))$/;

export function parseDeckFile(file: string): { kind: "source" } | { kind: "page"; page: number; width: number; format: DeckImageFormat } | null {
  const match = FILE.exec(file);
  if (!match) return null;
  if (!match[1]) return { kind: "source" };
  return { kind: "page", page: Number(match[1]), width: Number(match[2]), format: match[3] as DeckImageFormat };
}
