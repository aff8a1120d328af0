import { z } from "zod/mini";
import { acceptedTimeZone } from "~/modules/time/founder-zone";

export const TIME_ZONE_INVALID_MESSAGE = "Choose a time zone from the list";

/** My Projects' 'Your time zone' form (decision 53); the same schema runs in the browser and in the action. */
export const timeZoneSchema = z.object({
  timeZone: z.pipe(
    z.string(TIME_ZONE_INVALID_MESSAGE).check(z.refine((value) => acceptedTimeZone(value) !== null, TIME_ZONE_INVALID_MESSAGE)),
    z.transform((value: string) => acceptedTimeZone(value)!),
  ),
});

export type TimeZoneInput = z.infer<typeof timeZoneSchema>;
