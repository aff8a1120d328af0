import { z } from "zod/mini";
import { visitorEmail, visitorName } from "~/modules/forms/visitor-fields";
import { LIMITS, MESSAGES } from "~/modules/forms/visitor-limits";
import { checkbox, optionalText, requiredText } from "~/modules/forms/fields";
import { answerField } from "~/modules/leads/inbox/qualifying-question";

/** The signal of interest form. */
export const signalSchema = z.object({
  tierId: requiredText(LIMITS.tierId, MESSAGES.tierNotFound),
  name: visitorName,
  email: visitorEmail,
  message: optionalText(LIMITS.message, MESSAGES.messageTooLong),
  showName: checkbox,
  /** The message goes to the founders only, unless this is ticked too (and the name is shown). */
  showMessage: checkbox,
  /** The answer to the project's qualifying question, checked against it by the server. */
  answer: answerField,
});

export type SignalInput = z.infer<typeof signalSchema>;

/** A signal as the founder sees it: its range, its message, and what the visitor chose to show on the wall. */
export type SignalDetails = {
  rangeLabel: string;
  rangeMin: number;
  rangeMax: number | null;
  message: string | null;
  isPublic: boolean;
  messagePublic: boolean;
};
