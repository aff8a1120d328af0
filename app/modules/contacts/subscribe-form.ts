import { z } from "zod/mini";
import { checkbox } from "~/modules/forms/fields";
import { visitorEmail, visitorName } from "~/modules/forms/visitor-fields";
import { MESSAGES } from "~/modules/forms/visitor-limits";

/** The follow-updates form: consent first, as the form shows it. */
export const subscribeSchema = z.object({
  consent: checkbox.check(z.refine((value: boolean) => value, MESSAGES.consent)),
  name: visitorName,
  email: visitorEmail,
});

export type SubscribeInput = z.infer<typeof subscribeSchema>;
