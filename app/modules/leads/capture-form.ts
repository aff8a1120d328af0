import { z } from "zod/mini";
import { optionalHttpUrl } from "~/modules/forms/fields";
import { LIMITS } from "~/modules/forms/visitor-limits";
import { visitorEmail, visitorName } from "~/modules/forms/visitor-fields";
import { LEAD_TEMPERATURES } from "~/modules/formats/lead-triage";
import { UNKNOWN_TEMPERATURE_MESSAGE } from "./lead-forms";

/**
 * 'Add a person' (issue 29 item 2, decision 62): the one form of a capture, run by the booth's and the inbox's sheet
 * before it queues a capture and by the server before it saves one. Name and e-mail keep the pitch forms' limits
 * and messages (SPEC.md); an e-mail is required (a LinkedIn-only person is asked for one, decision 62).
 */
export const CAPTURE_NOTE_MAX_LENGTH = 200;
export const CAPTURE_NOTE_TOO_LONG_MESSAGE = `Note must be one line of at most ${CAPTURE_NOTE_MAX_LENGTH} characters`;
export const CAPTURE_LINKEDIN_MESSAGE = "Please enter a LinkedIn profile URL (https://www.linkedin.com/in/…)";
export const CAPTURE_KEY_MESSAGE = "This capture has no valid key: add the person again";
export const CAPTURE_CODE_MESSAGE = "Choose where you met them";
export const SIGNED_OUT_CAPTURE_MESSAGE = "You are signed out: sign in again to send the people waiting here (they stay on this device until then)";
export const CAPTURE_KEY_REUSED_MESSAGE = "This capture's key was already used for a different person. Nothing was saved: add this person again.";

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

export const captureSchema = z.object({
  /** The capturing device's UUID for this capture: its idempotency key. */
  key: z.string(CAPTURE_KEY_MESSAGE).check(z.trim(), z.regex(UUID_PATTERN, CAPTURE_KEY_MESSAGE), z.toLowerCase()),
  /** The code the booth showed (a QR code's id), or `plain` for the pitch address without an event. */
  codeId: z.string(CAPTURE_CODE_MESSAGE).check(z.trim(), z.minLength(1, CAPTURE_CODE_MESSAGE), z.maxLength(64, CAPTURE_CODE_MESSAGE)),
  name: visitorName,
  email: visitorEmail,
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

export type CaptureInput = z.infer<typeof captureSchema>;

/** What the sheet sends, and keeps in IndexedDB until the server has it. */
export type CaptureFields = { key: string; codeId: string; name: string; email: string; linkedinUrl: string; temperature: string; note: string };

/** What a saved capture answers (and a repeat of its key answers again). */
export type CaptureResult = { leadId: string; captureId: string; merged: boolean; message: string };
