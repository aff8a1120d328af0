import { z } from "zod/mini";

export const HELD_NOT_FOUND_MESSAGE = "This held submission was already accepted or discarded.";

/** Accept or Discard on one held form (decision 50): which one, by the button's form. */
export const heldReviewSchema = z.object({
  heldId: z.string(HELD_NOT_FOUND_MESSAGE).check(z.minLength(1, HELD_NOT_FOUND_MESSAGE), z.maxLength(64, HELD_NOT_FOUND_MESSAGE)),
});
export type HeldReviewInput = z.infer<typeof heldReviewSchema>;

export type HeldReviewIntent = "accept" | "discard";
