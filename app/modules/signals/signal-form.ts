import { z } from "zod/mini";
import { visitorEmail, visitorName } from "~/modules/contacts/visitor-fields";
import { LIMITS, MESSAGES } from "~/modules/contacts/visitor-form-rules";
import { checkbox, optionalText, requiredText } from "~/modules/forms/fields";

/** The signal of interest form (SPEC.md section 9). */
export const signalSchema = z.object({
  tierId: requiredText(LIMITS.tierId, MESSAGES.tierNotFound),
  name: visitorName,
  email: visitorEmail,
  message: optionalText(LIMITS.message, MESSAGES.messageTooLong),
  showName: checkbox,
  /** The message goes to the founders only, unless this is ticked too (and the name is shown). */
  showMessage: checkbox,
});

export type SignalInput = z.infer<typeof signalSchema>;
