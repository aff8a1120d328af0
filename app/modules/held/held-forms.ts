import { z } from "zod/mini";
import type { HoldReason } from "~/db/schema";

export const HELD_NOT_FOUND_MESSAGE = "This held submission was already accepted or discarded.";
export const HELD_GROUP_GONE_MESSAGE = "These held forms were already accepted or discarded.";

/** Held forms are deleted this many days after they were sent (decision 80). */
export const HELD_FORM_DAYS = 30;
/** Held forms per page of the review list. */
export const HELD_PAGE_SIZE = 50;

/** Accept or Discard on one held form (decision 50): which one, by the button's form. */
export const heldReviewSchema = z.object({
  heldId: z.string(HELD_NOT_FOUND_MESSAGE).check(z.minLength(1, HELD_NOT_FOUND_MESSAGE), z.maxLength(64, HELD_NOT_FOUND_MESSAGE)),
});
export type HeldReviewInput = z.infer<typeof heldReviewSchema>;

export const HOLD_REASONS = ["honeypot", "speed", "burst", "browser", "address", "email", "held_browser"] as const satisfies readonly HoldReason[];

/** Why forms were held, in the words "Discard all like this" uses: "held as …". */
export const HOLD_REASON_LABELS: Record<HoldReason, string> = {
  honeypot: "the hidden field filled in",
  speed: "sent seconds after opening the page",
  burst: "a burst from one browser",
  browser: "too many from one browser",
  address: "too many from one network",
  email: "too many for one e-mail address",
  held_browser: "from a browser already held",
};

/** A UTC hour as "Discard all like this" names it: '2026-12-02T03:00:00.000Z'. */
const HOUR = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/;

/** "Discard all like this" (decision 80): every held form of one reason sent in one UTC hour. */
export const heldDiscardLikeSchema = z.object({
  reason: z.enum(HOLD_REASONS, HELD_GROUP_GONE_MESSAGE),
  hour: z.string(HELD_GROUP_GONE_MESSAGE).check(z.regex(HOUR, HELD_GROUP_GONE_MESSAGE)),
});
export type HeldDiscardLikeInput = z.infer<typeof heldDiscardLikeSchema>;

export type HeldReviewIntent = "accept" | "discard" | "discard-like";

/** The UTC hour a time falls in, as `heldDiscardLikeSchema` names it. */
export function heldHourOf(at: string | Date): string {
  const ms = new Date(at).getTime();
  return new Date(Math.floor(ms / 3_600_000) * 3_600_000).toISOString();
}
