import { z } from "zod/mini";
import { requiredText } from "~/modules/forms/fields";

export const UPDATE_REQUIRED_MESSAGE = "Please describe what you shipped";
export const UPDATE_TOO_LONG_MESSAGE = "Update must be less than 500 characters";
export const UPDATE_MAX_LENGTH = 500;

/** The edit screen's 'Post update' form, run by the browser and the server. */
export const projectUpdateSchema = z.object({
  body: requiredText(UPDATE_MAX_LENGTH, UPDATE_TOO_LONG_MESSAGE, UPDATE_REQUIRED_MESSAGE),
});

export type ProjectUpdateInput = z.infer<typeof projectUpdateSchema>;

/** An update's 'Send now' button: which update to mail to followers at once. */
export const sendUpdateNowSchema = z.object({
  updateId: z.string().check(z.trim(), z.minLength(1, "Choose an update to send")),
});

export type SendUpdateNowInput = z.infer<typeof sendUpdateNowSchema>;

/** What 'Send now' answers for an update that followers already got (in a digest or sent earlier). */
export const UPDATE_ALREADY_SENT_MESSAGE = "Followers already got this update: it is not sent again";
