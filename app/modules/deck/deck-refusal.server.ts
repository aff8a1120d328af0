import { deckRefusalMessage, type DeckRefusalReason } from "./deck-rules";

/** A file refused as a deck, with the reason the founder is told; raised while reading or rendering it. */
export class DeckRefusal extends Error {
  readonly reason: DeckRefusalReason;
  readonly page: number | undefined;

  constructor(reason: DeckRefusalReason, detail: { pages?: number; page?: number } = {}) {
    super(deckRefusalMessage(reason, detail));
    this.name = "DeckRefusal";
    this.reason = reason;
    this.page = detail.page;
  }
}
