import { z } from "zod/mini";
import { isRecordId } from "~/modules/http/id-shape";
import { PLAIN_PITCH_CODE, UNKNOWN_BOOTH_CODE_MESSAGE } from "./booth-codes";

/** How long a new booth link works: a demo day, a conference, a week of events. The server accepts only these. */
export const BOOTH_LINK_DAYS = [1, 3, 7] as const;
export const DEFAULT_BOOTH_LINK_DAYS = 3;
export const BOOTH_LINK_DAYS_MESSAGE = "Choose how long the link works: 1, 3 or 7 days";

/** The code a link's screen shows: a QR code's id, `plain`, or empty for the project's default booth code. */
const boothLinkCode = z.pipe(
  z.optional(z.string()),
  z.transform((value: string | undefined, ctx) => {
    if (!value) return null;
    if (value !== PLAIN_PITCH_CODE && !isRecordId(value)) ctx.issues.push({ code: "custom", message: UNKNOWN_BOOTH_CODE_MESSAGE, input: value });
    return value;
  }),
);

export const createBoothLinkSchema = z.object({
  code: boothLinkCode,
  days: z.pipe(
    z.optional(z.string()),
    z.transform((value: string | undefined, ctx) => {
      const days = value === undefined || value === "" ? DEFAULT_BOOTH_LINK_DAYS : Number(value);
      if (!(BOOTH_LINK_DAYS as readonly number[]).includes(days)) {
        ctx.issues.push({ code: "custom", message: BOOTH_LINK_DAYS_MESSAGE, input: value });
      }
      return days;
    }),
  ),
});

export type CreateBoothLinkInput = z.infer<typeof createBoothLinkSchema>;

export const revokeBoothLinkSchema = z.object({
  linkId: z.string("Unknown booth link").check(z.refine(isRecordId, "Unknown booth link")),
});

/** 'Show another code' on an active link: its screens switch to it at once. */
export const repointBoothLinkSchema = z.object({
  linkId: z.string("Unknown booth link").check(z.refine(isRecordId, "Unknown booth link")),
  code: boothLinkCode,
});
export type RepointBoothLinkInput = z.infer<typeof repointBoothLinkSchema>;

/** Where a booth screen lives; a booth link is this address with `?key=`. */
export function boothPath(projectId: string): string {
  return `/project/${encodeURIComponent(projectId)}/booth`;
}

export type RevokeBoothLinkInput = z.infer<typeof revokeBoothLinkSchema>;
