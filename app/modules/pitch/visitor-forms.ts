import { z } from "zod/mini";
import { EMAIL_PATTERN } from "~/modules/mail/address";
import { EMAIL_MESSAGE, HONEYPOT_FIELD, isHttpUrl, LIMITS, MESSAGES, REQUIRED_MESSAGE, ROLE_TAGS, type RoleTag } from "./visitor-form-rules";

export { EMAIL_MESSAGE, HONEYPOT_FIELD, isHttpUrl, REQUIRED_MESSAGE, ROLE_TAGS, type RoleTag };

/**
 * The pitch page's three forms (SPEC.md sections 4, 5, 8 and 9), from the limits and messages of
 * `visitor-form-rules.ts`. The server and the React page run these schemas; every message is the spec's.
 * All text is trimmed first.
 */

const requiredText = (max: number, tooLong: string) =>
  z.string(REQUIRED_MESSAGE).check(z.trim(), z.minLength(1, REQUIRED_MESSAGE), z.maxLength(max, tooLong));

const name = requiredText(LIMITS.name, MESSAGES.nameTooLong);
const email = z
  .string(REQUIRED_MESSAGE)
  .check(
    z.trim(),
    z.minLength(1, REQUIRED_MESSAGE),
    z.maxLength(LIMITS.email, MESSAGES.emailTooLong),
    z.regex(EMAIL_PATTERN, EMAIL_MESSAGE),
  );

/** Empty means "not given" (null); anything else must be an http(s) URL (no javascript:, data:, ...). */
export const optionalHttpUrl = (message: string) =>
  z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(LIMITS.url, message))),
    z.transform((value: string | undefined, ctx) => {
      if (!value) return null;
      if (!isHttpUrl(value)) ctx.issues.push({ code: "custom", message, input: value });
      return value;
    }),
  );

/** Optional free text: trimmed, empty becomes null. */
const optionalText = (max: number, tooLong: string) =>
  z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(max, tooLong))),
    z.transform((value: string | undefined) => value || null),
  );

/** Form checkboxes arrive as "on"/"true" or not at all; JSON bodies send booleans. */
const checkbox = z.pipe(
  z.optional(z.union([z.boolean(), z.string()])),
  z.transform((value: boolean | string | undefined) => value === true || value === "on" || value === "true"),
);

export const introSchema = z.object({
  name,
  email,
  linkedinUrl: optionalHttpUrl(MESSAGES.linkedinUrl),
  note: requiredText(LIMITS.note, MESSAGES.noteTooLong),
  roleTags: z._default(z.array(z.enum(ROLE_TAGS, MESSAGES.unknownRoleTag)).check(z.maxLength(ROLE_TAGS.length, MESSAGES.tooManyRoleTags)), []),
});

export const subscribeSchema = z.object({
  consent: checkbox.check(z.refine((value: boolean) => value, MESSAGES.consent)),
  name,
  email,
});

export const signalSchema = z.object({
  tierId: z.string(REQUIRED_MESSAGE).check(z.trim(), z.minLength(1, REQUIRED_MESSAGE), z.maxLength(LIMITS.tierId, MESSAGES.tierNotFound)),
  name,
  email,
  message: optionalText(LIMITS.message, MESSAGES.messageTooLong),
  showName: checkbox,
  /** The message goes to the founders only, unless this is ticked too (and the name is shown). */
  showMessage: checkbox,
});

export type IntroInput = z.infer<typeof introSchema>;
export type SubscribeInput = z.infer<typeof subscribeSchema>;
export type SignalInput = z.infer<typeof signalSchema>;
