import { z } from "zod/mini";
import { isRecordId } from "~/modules/http/id-shape";

/** How long a new booth link works: a demo day, a conference, a week of events. The server accepts only these. */
export const BOOTH_LINK_DAYS = [1, 3, 7] as const;
export const DEFAULT_BOOTH_LINK_DAYS = 3;
export const BOOTH_LINK_DAYS_MESSAGE = "Choose how long the link works: 1, 3 or 7 days";

export const createBoothLinkSchema = z.object({
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

/** Where a booth screen lives; a booth link is this address with `?key=`. */
export function boothPath(projectId: string): string {
  return `/project/${encodeURIComponent(projectId)}/booth`;
}

export type RevokeBoothLinkInput = z.infer<typeof revokeBoothLinkSchema>;
