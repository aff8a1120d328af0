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
