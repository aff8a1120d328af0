import { z } from "zod/mini";

export const UPDATE_REQUIRED_MESSAGE = "Please describe what you shipped";
export const UPDATE_TOO_LONG_MESSAGE = "Update must be less than 500 characters";
export const UPDATE_MAX_LENGTH = 500;

/** The edit screen's 'Post update' form, run by the browser and the server. */
export const projectUpdateSchema = z.object({
  body: z
    .string(UPDATE_REQUIRED_MESSAGE)
    .check(z.trim(), z.minLength(1, UPDATE_REQUIRED_MESSAGE), z.maxLength(UPDATE_MAX_LENGTH, UPDATE_TOO_LONG_MESSAGE)),
});

export type ProjectUpdateInput = z.infer<typeof projectUpdateSchema>;
