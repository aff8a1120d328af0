import crypto from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { HONEYPOT_FIELD, type VisitorIntent } from "./visitor-form-rules";

/** What a repeated submission is answered: the first one's message (and intro blurb), and whether it was held for review. */
export type RecordedOutcome = { message: string; blurb?: string; held?: boolean };

/**
 * Claims a submission inside its own transaction, before anything else is written: the idempotency key (when it
 * has one) and then its share of the limits. A second submission with the same key waits on the key's primary key
 * until the first commits, then fails on it, so its whole transaction (the limits it would take, the contact, the
 * signal, the mail) is rolled back: nothing is written twice, on either database (decision 41).
 */
export type ClaimSubmission = (trx: Transaction<Database>, outcome: RecordedOutcome) => Promise<void>;

const KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** Fields that say how a form was sent, not what it says: left out of the fingerprint. */
const NOT_PART_OF_THE_REQUEST = new Set([HONEYPOT_FIELD, "intent", "via"]);

export const KEY_REUSED_MESSAGE =
  "This Idempotency-Key was already used for a different submission. Nothing was saved: send this one with a new key.";

/** A key from the `Idempotency-Key` header: 16 to 64 letters, digits, `-` or `_`; anything else is refused. */
export function parseSubmissionKey(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (!KEY_PATTERN.test(value)) throw new DomainError("invalid_input", "Invalid idempotency key");
  return value;
}

/**
 * What a key is bound to: the sha256 of a canonical JSON of the intent and the form's fields (sorted by name, text
 * trimmed as the schemas trim it; lists in their order). The same request sent again has the same fingerprint.
 */
export function submissionFingerprint(intent: VisitorIntent, values: Record<string, unknown>): string {
  const normalise = (value: unknown): unknown =>
    typeof value === "string" ? value.trim() : Array.isArray(value) ? value.map(normalise) : value === undefined ? null : value;
  const fields = Object.keys(values)
    .filter((name) => !NOT_PART_OF_THE_REQUEST.has(name))
    .sort()
    .map((name) => [name, normalise(values[name])]);
  return crypto.createHash("sha256").update(JSON.stringify([intent, fields])).digest("hex");
}

type RecordedSubmission = { outcome: RecordedOutcome; fingerprint: string | null };

export async function recordedSubmission(db: Kysely<Database>, projectId: string, key: string): Promise<RecordedSubmission | null> {
  const row = await db
    .selectFrom("visitor_submissions")
    .select(["outcome", "request_fingerprint"])
    .where("project_id", "=", projectId)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  return row ? { outcome: row.outcome, fingerprint: row.request_fingerprint } : null;
}

/**
 * The answer to a key already recorded: the first answer when the request is the same; 422 when it is not (its
 * answer may carry the first visitor's name and note). A key recorded before fingerprints (0023) cannot be
 * compared: it answers its message only.
 */
export function answerToRepeat(recorded: RecordedSubmission, fingerprint: string): RecordedOutcome {
  if (recorded.fingerprint === null) return { message: recorded.outcome.message };
  if (recorded.fingerprint !== fingerprint) throw new DomainError("unprocessable", KEY_REUSED_MESSAGE);
  return recorded.outcome;
}

/** Writes the key, its request's fingerprint and the answer to repeat, in the submission's transaction. */
export async function recordSubmissionKey(
  trx: Transaction<Database>,
  submission: { projectId: string; key: string; intent: VisitorIntent; fingerprint: string },
  outcome: RecordedOutcome,
): Promise<void> {
  await trx
    .insertInto("visitor_submissions")
    .values({ project_id: submission.projectId, idempotency_key: submission.key, intent: submission.intent, request_fingerprint: submission.fingerprint, outcome })
    .execute();
}
