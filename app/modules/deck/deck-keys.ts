import type { DeckPageWidth } from "./deck-rules";

/** Where a deck's files are kept: one folder per deck, never rewritten, so each key may be cached for ever. */
export const deckFolder = (deckId: string) => `decks/${deckId}/`;
export const deckSourceKey = (deckId: string) => `decks/${deckId}/source.pdf`;
export const deckPageKey = (deckId: string, page: number, width: DeckPageWidth) => `decks/${deckId}/page-${page}-${width}.webp`;
