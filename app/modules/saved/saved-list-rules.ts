import { EMAIL_PATTERN } from "~/modules/formats/email-address";
import { REQUIRED_MESSAGE } from "~/modules/forms/plain-checks";
import { EMAIL_MESSAGE, MESSAGES } from "~/modules/forms/visitor-limits";

/**
 * The limits and messages of 'E-mail me this list', shared by the server's schema
 * (`saved-list-form.ts`) and `/saved`'s script, which must not load zod (decision 13), as the pitch page's forms do.
 */
export const MAX_SAVED_PITCHES_PER_MAIL = 50;
export const MAX_EMAIL_LENGTH = 255;

export const SAVED_LIST_MESSAGES = {
  empty: "Save a pitch first: there is nothing to send yet.",
  tooMany: `One e-mail holds at most ${MAX_SAVED_PITCHES_PER_MAIL} pitches. Remove some and try again.`,
  unknownPitch: "One of the saved pitches is not a pitch address.",
  noneFound: "None of these pitches is published any more: there is nothing to send.",
  sent: "Sent. Check your inbox in a minute.",
  confirm: "Check your inbox: open the link we sent to confirm it's your address, and your list follows. From this browser, later lists go straight out.",
  stopped: "This address asked for no more saved-list e-mails.",
  offline: "You're offline: the list can be e-mailed once you're back online.",
  failed: "The list could not be sent. Please try again.",
} as const;

/** Why a saved-list mail's link does not work (decision 38); nothing was sent or changed. */
export const LIST_MAIL_LINK_FAILURES = {
  unknown: { title: "Invalid link", message: "This link is not valid: it may have been cut off or changed. Nothing was sent or changed." },
  expired: { title: "Expired link", message: "This link has expired. Nothing was sent. E-mail your list again from your saved pitches to get a new one." },
  used: { title: "Link already used", message: "This link has already been used: your list was sent then. Nothing more was sent." },
} as const;

/** The address field as the script checks it before posting (the schema decides on the server). */
export function savedListEmailError(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return REQUIRED_MESSAGE;
  if (trimmed.length > MAX_EMAIL_LENGTH) return MESSAGES.emailTooLong;
  return EMAIL_PATTERN.test(trimmed) ? null : EMAIL_MESSAGE;
}

/** How many pitches may go in one e-mail, as the script checks it before posting. */
export function savedListCountError(count: number): string | null {
  if (count === 0) return SAVED_LIST_MESSAGES.empty;
  return count > MAX_SAVED_PITCHES_PER_MAIL ? SAVED_LIST_MESSAGES.tooMany : null;
}
