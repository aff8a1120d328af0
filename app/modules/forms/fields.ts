import { z } from "zod/mini";
import { EMAIL_PATTERN } from "~/modules/formats/email-address";
import { isHttpUrl, REQUIRED_MESSAGE } from "./plain-checks";

/**
 * The field builders every form schema is made of: all text is trimmed, an e-mail is lowercased here and nowhere
 * else, and each limit is a `maxLength` check that `constraints.ts` reads back for the matching HTML input.
 * Text that is not storable (NUL, control characters) is refused for the whole submission by `validate`, so a
 * poisoned field the schema does not name is refused too.
 */

/** Trimmed text that must not be empty. */
export const requiredText = (max: number, tooLong: string, required: string = REQUIRED_MESSAGE) =>
  z.string(required).check(z.trim(), z.minLength(1, required), z.maxLength(max, tooLong));

/** Trimmed text that may be empty. */
export const text = (max: number, tooLong?: string) => z.string().check(z.trim(), z.maxLength(max, tooLong));

/** Optional free text: trimmed, empty or missing becomes null. */
export const optionalText = (max: number, tooLong: string) =>
  z.pipe(z.optional(text(max, tooLong)), z.transform((value: string | undefined) => value || null));

type EmailMessages = { invalid: string; tooLong: string; required?: string };

/**
 * A trimmed, lowercased e-mail address (contacts, limits and unsubscribes all compare the lowercase form).
 * `isValid` is the form's notion of an address: the visitor forms' pattern by default.
 */
export const emailAddress = (messages: EmailMessages, isValid: (value: string) => boolean = (value) => EMAIL_PATTERN.test(value)) => {
  const required = messages.required ?? messages.invalid;
  return z
    .string(required)
    .check(z.trim(), z.minLength(1, required), z.maxLength(255, messages.tooLong), z.refine(isValid, messages.invalid), z.toLowerCase());
};

/** Empty means "not given" (null); anything else must be an http(s) URL (no javascript:, data:, ...). */
export const optionalHttpUrl = (message: string, max = 2048) =>
  z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(max, message))),
    z.transform((value: string | undefined, ctx) => {
      if (!value) return null;
      if (!isHttpUrl(value)) ctx.issues.push({ code: "custom", message, input: value });
      return value;
    }),
  );

/** Form checkboxes arrive as "on"/"true" or not at all; JSON bodies send booleans. */
export const checkbox = z.pipe(
  z.optional(z.union([z.boolean(), z.string()])),
  z.transform((value: boolean | string | undefined) => value === true || value === "on" || value === "true"),
);
