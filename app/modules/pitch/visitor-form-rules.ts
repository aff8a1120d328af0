import { EMAIL_PATTERN } from "~/modules/mail/address";
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPaths } from "~/modules/forms/storable-text";

/**
 * The limits and messages of the pitch page's three forms (SPEC.md sections 4, 5, 8 and 9): the one source
 * for the zod schemas the server runs (`visitor-forms.ts`) and for `checkVisitorForm`, the same rules
 * without zod for the anonymous page's enhancement module (decision 13; a unit test holds the two equal).
 */
export const ROLE_TAGS = ["Angel", "Operator", "Press", "Designer", "PM", "Founder", "Engineer"] as const;
export type RoleTag = (typeof ROLE_TAGS)[number];

export const REQUIRED_MESSAGE = "Please fill in all required fields";
export const EMAIL_MESSAGE = "Please enter a valid email address";

export const LIMITS = { name: 100, email: 255, url: 2048, note: 1000, message: 1000, tierId: 64 } as const;

export const MESSAGES = {
  nameTooLong: "Name must be less than 100 characters",
  emailTooLong: "Email must be less than 255 characters",
  linkedinUrl: "Please enter a valid LinkedIn URL (starting with https://)",
  noteTooLong: "Note must be less than 1000 characters",
  messageTooLong: "Message must be less than 1000 characters",
  unknownRoleTag: "Unknown role tag",
  tooManyRoleTags: "Too many role tags",
  consent: "Please agree to receive updates.",
  tierNotFound: "Tier not found",
} as const;

/** The order the fields appear in each form: the first message shown is the first field's. */
export const FIELD_ORDER = {
  intro: ["name", "email", "linkedinUrl", "note", "roleTags"],
  subscribe: ["name", "email", "consent"],
  signal: ["tierId", "name", "email", "message", "showName", "showMessage"],
} as const;

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

export type FormCheck = { ok: true } | { ok: false; fieldErrors: Record<string, string>; formError: string };
type Values = Record<string, string | string[] | undefined>;

const text = (value: string | string[] | undefined) => (typeof value === "string" ? value.trim() : "");

function requiredText(value: string | string[] | undefined, max: number, tooLong: string): string | null {
  const trimmed = text(value);
  if (!trimmed) return REQUIRED_MESSAGE;
  return trimmed.length > max ? tooLong : null;
}

function emailError(value: string | string[] | undefined): string | null {
  const trimmed = text(value);
  if (!trimmed) return REQUIRED_MESSAGE;
  if (trimmed.length > LIMITS.email) return MESSAGES.emailTooLong;
  return EMAIL_PATTERN.test(trimmed) ? null : EMAIL_MESSAGE;
}

const isChecked = (value: string | string[] | undefined) => value === "on" || value === "true";

/**
 * A form as the browser read it (text fields as strings, `roleTags` as a list), checked with the rules the
 * server's schema applies: the first message per field, and the first field's as the form's message.
 */
export function checkVisitorForm(intent: keyof typeof FIELD_ORDER, values: Values): FormCheck {
  const unstorable = unstorableTextPaths(values);
  if (unstorable.length) {
    const fieldErrors: Record<string, string> = {};
    for (const path of unstorable) fieldErrors[path[0] ?? "form"] = UNSTORABLE_TEXT_MESSAGE;
    return { ok: false, fieldErrors, formError: UNSTORABLE_TEXT_MESSAGE };
  }
  const errors: Record<string, string | null> = {};
  errors.name = requiredText(values.name, LIMITS.name, MESSAGES.nameTooLong);
  errors.email = emailError(values.email);
  if (intent === "intro") {
    const url = text(values.linkedinUrl);
    errors.linkedinUrl = url && (url.length > LIMITS.url || !isHttpUrl(url)) ? MESSAGES.linkedinUrl : null;
    errors.note = requiredText(values.note, LIMITS.note, MESSAGES.noteTooLong);
    const tags = Array.isArray(values.roleTags) ? values.roleTags : [];
    errors.roleTags =
      tags.length > ROLE_TAGS.length ? MESSAGES.tooManyRoleTags : tags.some((tag) => !(ROLE_TAGS as readonly string[]).includes(tag)) ? MESSAGES.unknownRoleTag : null;
  } else if (intent === "subscribe") {
    errors.consent = isChecked(values.consent) ? null : MESSAGES.consent;
  } else {
    errors.tierId = requiredText(values.tierId, LIMITS.tierId, MESSAGES.tierNotFound);
    errors.message = text(values.message).length > LIMITS.message ? MESSAGES.messageTooLong : null;
  }
  const fieldErrors: Record<string, string> = {};
  for (const field of FIELD_ORDER[intent]) {
    const message = errors[field];
    if (message) fieldErrors[field] = message;
  }
  const first = Object.values(fieldErrors)[0];
  return first ? { ok: false, fieldErrors, formError: first } : { ok: true };
}

/** The honeypot: a field people never see or fill. A value means a script filled the form. */
export const HONEYPOT_FIELD = "website";
