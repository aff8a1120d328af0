import type { DeckImageFormat } from "./deck-keys";
import type { DeckPageWidth, DeckRefusalReason } from "./deck-rules";

/** What the renderer hands its worker: the PDF's bytes (moved, not copied) and the first page still to draw. */
export type RenderRequest = { pdf: ArrayBuffer; fromPage: number };

/** What the worker says back, in order: the page count once opened, then each page, then done or why not. */
export type RenderMessage =
  | { type: "opened"; pageCount: number }
  | {
      type: "page";
      page: number;
      width: number;
      height: number;
      text: string;
      images: { width: DeckPageWidth; format: DeckImageFormat; bytes: ArrayBuffer }[];
    }
  | { type: "done" }
  | { type: "refused"; reason: DeckRefusalReason; page: number | undefined }
  | { type: "failed"; message: string };
