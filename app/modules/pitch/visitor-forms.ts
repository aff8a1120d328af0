import { z } from "zod/mini";
import { EMAIL_PATTERN } from "~/modules/mail/address";

/**
 * The pitch page's three forms (SPEC.md sections 4, 5, 8 and 9). The browser and the server run these same
 * schemas; every message is the spec's. All text is trimmed first.
 */
export const ROLE_TAGS = ["Angel", "Operator", "Press", "Designer", "PM", "Founder", "Engineer"] as const;
export type RoleTag = (typeof ROLE_TAGS)[number];

export const REQUIRED_MESSAGE = "Please fill in all required fields";
export const EMAIL_MESSAGE = "Please enter a valid email address";

const requiredText = (max: number, tooLong: string) =>
  z.string(REQUIRED_MESSAGE).check(z.trim(), z.minLength(1, REQUIRED_MESSAGE), z.maxLength(max, tooLong));

const name = requiredText(100, "Name must be less than 100 characters");
const email = z
  .string(REQUIRED_MESSAGE)
  .check(
    z.trim(),
    z.minLength(1, REQUIRED_MESSAGE),
    z.maxLength(255, "Email must be less than 255 characters"),
    z.regex(EMAIL_PATTERN, EMAIL_MESSAGE),
  );

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** Empty means "not given" (null); anything else must be an http(s) URL (no javascript:, data:, ...). */
export const optionalHttpUrl = (message: string) =>
  z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(2048, message))),
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
  linkedinUrl: optionalHttpUrl("Please enter a valid LinkedIn URL (starting with https://)"),
  note: requiredText(1000, "Note must be less than 1000 characters"),
  roleTags: z._default(z.array(z.enum(ROLE_TAGS, "Unknown role tag")).check(z.maxLength(ROLE_TAGS.length, "Too many role tags")), []),
});

export const subscribeSchema = z.object({
  consent: checkbox.check(z.refine((value: boolean) => value, "Please agree to receive updates.")),
  name,
  email,
});

export const signalSchema = z.object({
  tierId: z.string(REQUIRED_MESSAGE).check(z.trim(), z.minLength(1, REQUIRED_MESSAGE), z.maxLength(64, "Tier not found")),
  name,
  email,
  message: optionalText(1000, "Message must be less than 1000 characters"),
  showName: checkbox,
});

export type IntroInput = z.infer<typeof introSchema>;
export type SubscribeInput = z.infer<typeof subscribeSchema>;
export type SignalInput = z.infer<typeof signalSchema>;

/** The honeypot: a field people never see or fill. A value means a script filled the form. */
export const HONEYPOT_FIELD = "website";
