import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import type { VisitorIntent } from "./visitor-form-rules";

/** What a repeated submission is answered: the first one's message (and intro blurb). */
export type RecordedOutcome = { message: string; blurb?: string };

/**
 * Writes a submission's idempotency key inside the transaction of the submission itself, with its answer.
 * A second submission with the same key fails on the key's primary key, so its whole transaction (the
 * contact, the signal, the mail) is rolled back: nothing is written twice, on either database.
 */
export type ClaimSubmission = (trx: Transaction<Database>, outcome: RecordedOutcome) => Promise<void>;

const KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** A key from the `Idempotency-Key` header: 16 to 64 letters, digits, `-` or `_`; anything else is refused. */
export function parseSubmissionKey(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (!KEY_PATTERN.test(value)) throw new DomainError("invalid_input", "Invalid idempotency key");
  return value;
}

export async function recordedOutcome(db: Kysely<Database>, projectId: string, key: string): Promise<RecordedOutcome | null> {
  const row = await db
    .selectFrom("visitor_submissions")
    .select("outcome")
    .where("project_id", "=", projectId)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  return row?.outcome ?? null;
}

export function claimSubmission(projectId: string, key: string, intent: VisitorIntent): ClaimSubmission {
  return async (trx, outcome) => {
    await trx.insertInto("visitor_submissions").values({ project_id: projectId, idempotency_key: key, intent, outcome }).execute();
  };
}
