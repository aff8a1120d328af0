import { z } from "zod/mini";
import { optionalHttpUrl, requiredText } from "~/modules/forms/fields";
import { answerField } from "~/modules/leads/inbox/qualifying-question";
import { visitorEmail, visitorName } from "~/modules/forms/visitor-fields";
import { ROLE_TAGS } from "./visitor-form-rules";
import { LIMITS, MESSAGES } from "~/modules/forms/visitor-limits";

/** The intro request form, run by the server and the React page; every message is the spec's. */
export const introSchema = z.object({
  name: visitorName,
  email: visitorEmail,
  linkedinUrl: optionalHttpUrl(MESSAGES.linkedinUrl, LIMITS.url),
  note: requiredText(LIMITS.note, MESSAGES.noteTooLong),
  roleTags: z._default(z.array(z.enum(ROLE_TAGS, MESSAGES.unknownRoleTag)).check(z.maxLength(ROLE_TAGS.length, MESSAGES.tooManyRoleTags)), []),
  /** The answer to the project's qualifying question, checked against it by the server. */
  answer: answerField,
});

export type IntroInput = z.infer<typeof introSchema>;
