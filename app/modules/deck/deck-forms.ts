import { z } from "zod/mini";
import { checkbox } from "~/modules/forms/fields";
import { DECK_FILE_MISSING_MESSAGE, DECK_MAX_BYTES, deckRefusalMessage } from "./deck-rules";

/**
 * The Deck section's upload: one file, not empty and at most 50 MB, checked in the browser before it is sent and
 * again on the server, where the content decides whether it is a PDF (a name or a type can say anything).
 */
export const deckUploadSchema = z.object({
  deck: z.file(DECK_FILE_MISSING_MESSAGE).check(z.minSize(1, DECK_FILE_MISSING_MESSAGE), z.maxSize(DECK_MAX_BYTES, deckRefusalMessage("too_large"))),
});
export type DeckUploadInput = z.infer<typeof deckUploadSchema>;

/** 'Visitors may download the PDF'. */
export const deckDownloadSchema = z.object({ download: checkbox });
export type DeckDownloadInput = z.infer<typeof deckDownloadSchema>;
