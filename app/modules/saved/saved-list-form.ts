import { z } from "zod/mini";
import { visitorEmail } from "~/modules/forms/visitor-fields";
import { SLUG_PATTERN } from "~/modules/projects/project-form";
import { MAX_SAVED_PITCHES_PER_MAIL, SAVED_LIST_MESSAGES } from "./saved-list-rules";

/**
 * 'E-mail me this list': the address and the saved pitches' slugs. Only slugs: the server writes
 * the e-mail from its own data, never from titles or links a client sends.
 */
export const emailSavedListSchema = z.object({
  email: visitorEmail,
  slugs: z
    .array(z.string(SAVED_LIST_MESSAGES.unknownPitch).check(z.refine((slug) => SLUG_PATTERN.test(slug), SAVED_LIST_MESSAGES.unknownPitch)), SAVED_LIST_MESSAGES.empty)
    .check(z.minLength(1, SAVED_LIST_MESSAGES.empty), z.maxLength(MAX_SAVED_PITCHES_PER_MAIL, SAVED_LIST_MESSAGES.tooMany)),
});

export type EmailSavedListInput = z.infer<typeof emailSavedListSchema>;
