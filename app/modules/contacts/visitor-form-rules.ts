import type { FormResult } from "~/modules/forms/form-result";
import { isHttpUrl, REQUIRED_MESSAGE } from "~/modules/forms/plain-checks";
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPaths } from "~/modules/forms/storable-text";
import { EMAIL_PATTERN } from "~/modules/formats/email-address";
import { EMAIL_MESSAGE, LIMITS, MESSAGES } from "~/modules/forms/visitor-limits";
import { answerProblem, QUESTION_LIMITS, QUESTION_MESSAGES, type QualifyingQuestion } from "~/modules/leads/inbox/qualifying-answer";

/**
 * The limits and messages of the pitch page's three forms: the one source
 * for their zod schemas (`intro-form.ts`, `subscribe-form.ts`, `signals/signal-form.ts`) and for
 * `checkVisitorForm`, the same rules without zod for the anonymous page's enhancement module (decision 13; a
 * unit test holds the two equal).
 */
export const ROLE_TAGS = ["Angel", "Operator", "Press", "Designer", "PM", "Founder", "Engineer"] as const;




export type VisitorIntent = "intro" | "subscribe" | "signal";

const INTENTS: readonly VisitorIntent[] = ["intro", "subscribe", "signal"];

/** A posted `intent` field; anything unknown is an intro, as the forms have always answered. */
export function visitorIntentOf(value: unknown): VisitorIntent {
  return INTENTS.includes(value as VisitorIntent) ? (value as VisitorIntent) : "intro";
}

/**
 * What the pitch page's forms answer; an intro's success carries the forwardable blurb, and every success what
 * happens next (`NEXT_STEPS`, sent by the server so the anonymous page's script does not carry the words).
 */
export type VisitorActionResult = FormResult<VisitorIntent, { blurb?: string; next?: string; held?: boolean }>;

/** The spec's success toasts. */
export const SUBSCRIBED_MESSAGE = "You're on the list—weekly Friday digest, unsub anytime.";
export const SIGNAL_RECORDED_MESSAGE = "Signal of interest recorded!";
export const INTRO_SENT_MESSAGE = "Intro request sent!";

/**
 * What a form held for the founder's review answers (decision 50), instead of a success it has not had: it is
 * kept, and reaches the founders once they have looked at it. No next step follows it.
 */
export const HELD_MESSAGE = "Thanks — we'll check this and pass it on to the founders.";

/**
 * What happens next, said after each spec confirmation by both renderers: in the toasts, the intro's
 * panel and the notice a page without JavaScript shows. True whatever the founder's alert settings are. Successful
 * answers carry it as `next`.
 */
export const NEXT_STEPS: Record<VisitorIntent, string> = {
  intro: "The founders see it in their leads and reply to you by e-mail; a copy of your intro text is on its way to your inbox.",
  subscribe: "Your first digest comes on a Friday after the founders ship something.",
  signal: "The founders see it in their leads now and may follow up by e-mail.",
};

/** What the visitor's request was called while it waited on the phone: 'Your intro request was sent'. */
export const KEPT_REQUEST_NAMES: Record<VisitorIntent, string> = { intro: "intro request", subscribe: "request to follow updates", signal: "signal of interest" };

/** A confirmation with its next step; a request kept offline and sent later says so first. */
export function confirmationText(intent: VisitorIntent, answer: { message: string; next?: string | undefined }, options: { sentLater?: boolean } = {}): string {
  const sent = options.sentLater ? `Your ${KEPT_REQUEST_NAMES[intent]} was sent. ` : "";
  return `${sent}${answer.message}${answer.next ? ` ${answer.next}` : ""}`;
}

/** How long a confirmation toast stays: long enough to read the next step. */
export const CONFIRMATION_TOAST_MS = 8_000;

/** The spec's fallback messages when the server gives none. */
export const FAILURE_MESSAGES: Record<VisitorIntent, string> = {
  intro: "Failed to submit. Please try again.",
  subscribe: "Failed to subscribe. Please try again.",
  signal: "Failed to record signal",
};

/** The order the fields appear in each form: the first message shown is the first field's. */
export const FIELD_ORDER = {
  intro: ["name", "email", "linkedinUrl", "note", "roleTags", "answer"],
  subscribe: ["name", "email", "consent"],
  signal: ["tierId", "name", "email", "message", "showName", "showMessage", "answer"],
} as const;

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
 * server's schema applies: the first message per field, and the first field's as the form's message. With the
 * project's qualifying question, the answer is checked against it as the server checks it.
 */
export function checkVisitorForm(intent: VisitorIntent, values: Values, question: QualifyingQuestion | null = null): FormCheck {
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
  if (intent !== "subscribe") {
    const answer = text(values.answer);
    errors.answer = answer.length > QUESTION_LIMITS.answer ? QUESTION_MESSAGES.answerTooLong : answerProblem(question, answer || null);
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

/** Reads a visitor form in the browser: repeated `roleTags` become a list, every other field its (last) text value. */
export function readVisitorFormValues(form: HTMLFormElement): Record<string, string | string[]> {
  const data = new FormData(form);
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of data) if (typeof value === "string" && key !== "roleTags") values[key] = value;
  values.roleTags = data.getAll("roleTags").filter((tag): tag is string => typeof tag === "string");
  return values;
}

/** `roleTags.0` → `roleTags`: a message about one item belongs to the field (the first message per field wins). */
export function errorsByField(fieldErrors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(fieldErrors)) {
    const field = key.split(".")[0] ?? key;
    if (!(field in out)) out[field] = message;
  }
  return out;
}
