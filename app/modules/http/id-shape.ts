/**
 * The shapes of the ids that come from outside (addresses, form fields, JSON bodies, links), checked before any
 * query: a value that cannot be one of ours is answered like an unknown id, without asking the database. Every
 * id the app hands out fits (UUIDs, the demo owner's `demo-owner`), and so does anything both databases store
 * and compare alike.
 */

/** Projects, QR codes, tiers, leads, webhooks: UUIDs, or short ids of letters, digits, `-` and `_`. */
const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The first 32 characters of an encoded trait string; visible ASCII, at most 64 as sent. */
const VIEWER_FINGERPRINT = /^[\x21-\x7e]{1,64}$/;

/** `{contact id}.{expiry}.{HMAC-SHA256}`, base64url and base-36 (decision 12). */
const UNSUBSCRIBE_TOKEN = /^[A-Za-z0-9_-]{1,128}\.[0-9a-z]{1,12}\.[A-Za-z0-9_-]{43}$/;

export function isRecordId(value: unknown): value is string {
  return typeof value === "string" && RECORD_ID.test(value);
}

export function isViewerFingerprint(value: unknown): value is string {
  return typeof value === "string" && VIEWER_FINGERPRINT.test(value);
}

export function isUnsubscribeTokenShape(value: unknown): value is string {
  return typeof value === "string" && UNSUBSCRIBE_TOKEN.test(value);
}

/** A token we hand out in a link: 32 random bytes, base64url (booth links, decision 35; address confirmations, decision 37). */
const RANDOM_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function isBoothTokenShape(value: unknown): value is string {
  return typeof value === "string" && RANDOM_TOKEN.test(value);
}

export function isConfirmationTokenShape(value: unknown): value is string {
  return typeof value === "string" && RANDOM_TOKEN.test(value);
}

/** A password reset token, as better-auth makes it: 24 letters and digits. */
const PASSWORD_RESET_TOKEN = /^[A-Za-z0-9]{24}$/;

export function isPasswordResetTokenShape(value: unknown): value is string {
  return typeof value === "string" && PASSWORD_RESET_TOKEN.test(value);
}

/** A sign-up invitation's token: 32 random bytes, base64url. */
const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function isInvitationTokenShape(value: unknown): value is string {
  return typeof value === "string" && INVITATION_TOKEN.test(value);
}
