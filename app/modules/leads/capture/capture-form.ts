import { z } from "zod/mini";
import { optionalHttpUrl } from "~/modules/forms/fields";
import { EMAIL_MESSAGE, LIMITS, MESSAGES } from "~/modules/forms/visitor-limits";
import { visitorName } from "~/modules/forms/visitor-fields";
import { EMAIL_PATTERN } from "~/modules/formats/email-address";
import { LEAD_TEMPERATURES } from "~/modules/formats/lead-triage";
import { UNKNOWN_TEMPERATURE_MESSAGE } from "~/modules/leads/lead-forms";

/**
 * 'Add a person' (decision 62): the one form of a capture, run by the booth's and the inbox's sheet
 * before it queues a capture and by the server before it saves one. Name and e-mail keep the pitch forms' limits
 * and messages. A name and any one of e-mail, LinkedIn URL or phone save a person (decision 92).
 */
export const CAPTURE_NOTE_MAX_LENGTH = 200;
export const CAPTURE_NOTE_TOO_LONG_MESSAGE = `Note must be one line of at most ${CAPTURE_NOTE_MAX_LENGTH} characters`;
export const CAPTURE_LINKEDIN_MESSAGE = "Please enter a LinkedIn profile URL (https://www.linkedin.com/in/…)";
export const CAPTURE_KEY_MESSAGE = "This capture has no valid key: add the person again";
export const CAPTURE_CODE_MESSAGE = "Choose where you met them";
export const SIGNED_OUT_CAPTURE_MESSAGE = "You are signed out: sign in again to send the people waiting here (they stay on this device until then)";
export const CAPTURE_KEY_REUSED_MESSAGE = "This capture's key was already used for a different person. Nothing was saved: add this person again.";

export const CAPTURE_PHONE_MAX_LENGTH = 40;
export const CAPTURE_PHONE_MESSAGE = "Please enter a phone number: 6 to 15 digits, with spaces, +, -, ( ) or . between them";
export const CAPTURE_ONE_WAY_MESSAGE = "Add their e-mail, LinkedIn URL or phone: a name and one of these saves a person";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An http(s) address on linkedin.com (any subdomain): a profile, or a company page. */
export function isLinkedInUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && /(^|\.)linkedin\.com$/i.test(url.hostname) && url.pathname.length > 1;
  } catch {
    return false;
  }
}

/** The digits of a phone number as typed: 6 to 15 of them (E.164's most), separated only by what people write between them. */
export function phoneDigits(value: string): string | null {
  if (!/^\+?[\d\s().-]+$/.test(value)) return null;
  const digits = value.replace(/\D/g, "");
  return digits.length >= 6 && digits.length <= 15 ? digits : null;
}

/** A LinkedIn URL's profile or page, lower-case (`in/jane-doe-1234`, `company/acme`): the same person whatever the URL's form. */
export function linkedInHandle(value: string): string | null {
  if (!isLinkedInUrl(value)) return null;
  const segments = new URL(value).pathname.split("/").filter(Boolean).slice(0, 2);
  if (segments.length === 0) return null;
  try {
    return segments.map((segment) => decodeURIComponent(segment).toLowerCase()).join("/");
  } catch {
    return segments.join("/").toLowerCase();
  }
}

/**
 * The name a LinkedIn profile URL suggests, from its slug: `linkedin.com/in/jane-doe-1234` is "Jane Doe" (the
 * trailing number LinkedIn adds is dropped). Null for a company page or a slug with no letters.
 */
export function nameFromLinkedIn(value: string): string | null {
  const handle = linkedInHandle(value.trim());
  if (!handle?.startsWith("in/")) return null;
  const words = handle
    .slice(3)
    .split(/[-_.]+/)
    .filter((word) => /\p{L}/u.test(word) && !/^[0-9a-f]*\d[0-9a-f]*$/.test(word));
  if (words.length === 0) return null;
  return words
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ")
    .slice(0, LIMITS.name);
}

/** Empty means "no e-mail" (null); anything else must be an address, as the pitch forms ask. */
const optionalEmail = z.pipe(
  z.optional(z.string().check(z.trim(), z.maxLength(255, MESSAGES.emailTooLong))),
  z.transform((value: string | undefined, ctx) => {
    if (!value) return null;
    if (!EMAIL_PATTERN.test(value)) ctx.issues.push({ code: "custom", message: EMAIL_MESSAGE, input: value });
    return value.toLowerCase();
  }),
);

const optionalPhone = z.pipe(
  z.optional(z.string().check(z.trim(), z.maxLength(CAPTURE_PHONE_MAX_LENGTH, CAPTURE_PHONE_MESSAGE))),
  z.transform((value: string | undefined, ctx) => {
    if (!value) return null;
    if (!phoneDigits(value)) ctx.issues.push({ code: "custom", message: CAPTURE_PHONE_MESSAGE, input: value });
    return value.replace(/\s+/g, " ");
  }),
);

const captureFields = z.object({
  /** The capturing device's UUID for this capture: its idempotency key. */
  key: z.string(CAPTURE_KEY_MESSAGE).check(z.trim(), z.regex(UUID_PATTERN, CAPTURE_KEY_MESSAGE), z.toLowerCase()),
  /** The code the booth showed (a QR code's id), or `plain` for the pitch address without an event. */
  codeId: z.string(CAPTURE_CODE_MESSAGE).check(z.trim(), z.minLength(1, CAPTURE_CODE_MESSAGE), z.maxLength(64, CAPTURE_CODE_MESSAGE)),
  name: visitorName,
  email: optionalEmail,
  phone: optionalPhone,
  linkedinUrl: z.pipe(
    optionalHttpUrl(CAPTURE_LINKEDIN_MESSAGE, LIMITS.url),
    z.transform((value: string | null, ctx) => {
      if (value !== null && !isLinkedInUrl(value)) ctx.issues.push({ code: "custom", message: CAPTURE_LINKEDIN_MESSAGE, input: value });
      return value;
    }),
  ),
  temperature: z.pipe(
    z.optional(z.string()),
    z.transform((value: string | undefined, ctx) => {
      if (!value) return null;
      if (!(LEAD_TEMPERATURES as readonly string[]).includes(value)) ctx.issues.push({ code: "custom", message: UNKNOWN_TEMPERATURE_MESSAGE, input: value });
      return value as (typeof LEAD_TEMPERATURES)[number];
    }),
  ),
  note: z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(CAPTURE_NOTE_MAX_LENGTH, CAPTURE_NOTE_TOO_LONG_MESSAGE), z.refine((value) => !/[\r\n]/.test(value), CAPTURE_NOTE_TOO_LONG_MESSAGE))),
    z.transform((value: string | undefined) => value || null),
  ),
});

export const captureSchema = captureFields.check(
  z.superRefine((value, ctx) => {
    if (value.email || value.linkedinUrl || value.phone) return;
    ctx.addIssue({ code: "custom", message: CAPTURE_ONE_WAY_MESSAGE, input: value, path: ["email"] });
  }),
);

export type CaptureInput = z.infer<typeof captureSchema>;

/**
 * What the sheet sends, and keeps in IndexedDB until the server has it: an empty string for what was not given.
 * `phone` is missing from what a device queued before phones were asked for.
 */
export type CaptureFields = { key: string; codeId: string; name: string; email: string; phone?: string; linkedinUrl: string; temperature: string; note: string };

/** What a saved capture answers (and a repeat of its key answers again). */
export type CaptureResult = { leadId: string; captureId: string; merged: boolean; message: string };
