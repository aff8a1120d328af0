import type { Kysely, Selectable } from "kysely";
import type { Database, MailAttachment, MailOutboxTable } from "~/db/schema";
import { isSingleMailbox } from "~/modules/formats/email-address";
import { claimableIds, type Claim } from "~/modules/jobs/delivery-claims.server";

export type OutgoingMail = {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Extra headers (List-Unsubscribe, …); values are single-line by construction. */
  headers?: Record<string, string>;
  /** One address the recipient's answer goes to (a founder's reply to a lead goes out from MAIL_FROM). */
  replyTo?: string | null;
  /** An RFC 5545 calendar with `METHOD:REQUEST`, sent as the message's invitation (a `text/calendar` alternative). */
  calendarIcs?: string | null;
  /** Files the message carries (the morning-after report's CSV). */
  attachments?: MailAttachment[] | null;
};

export type QueuedMail = Pick<Selectable<MailOutboxTable>, "id" | "kind" | "recipient" | "subject" | "text_body" | "html_body" | "mail_headers" | "attempts" | "reply_to" | "calendar_ics" | "attachments"> & {
  /** When an earlier holder began a send whose outcome it never recorded (it died or lost its claim), if so. */
  outcomeUnknownSince: string | null;
  /**
   * When an earlier holder had handed the whole message to the SMTP server and was ending its data, but never
   * recorded the server's answer: the server may have it, so it is counted as sent and never sent again.
   */
  handedOverAt: string | null;
};

/** No line breaks in anything that becomes a header: a visitor's name or subject cannot add headers or recipients. */
export function singleLine(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
}

function outboxRow(mail: OutgoingMail, now: Date) {
  if (!isSingleMailbox(mail.to)) throw new Error(`refusing to queue mail for ${JSON.stringify(mail.to)}: not a single address`);
  if (mail.replyTo && !isSingleMailbox(mail.replyTo)) throw new Error(`refusing a Reply-To of ${JSON.stringify(mail.replyTo)}: not a single address`);
  return {
    id: crypto.randomUUID(),
    kind: mail.kind,
    recipient: singleLine(mail.to),
    subject: singleLine(mail.subject),
    text_body: mail.text,
    html_body: mail.html ?? null,
    reply_to: mail.replyTo ? singleLine(mail.replyTo) : null,
    calendar_ics: mail.calendarIcs ?? null,
    attachments: mail.attachments?.length
      ? mail.attachments.map((file) => ({ ...file, filename: singleLine(file.filename), contentType: singleLine(file.contentType) }))
      : null,
    mail_headers: Object.fromEntries(Object.entries(mail.headers ?? {}).map(([name, value]) => [singleLine(name), singleLine(value)])),
    next_attempt_at: now.toISOString(),
    created_at: now.toISOString(),
    sent_at: null,
    locked_until: null,
    last_error: null,
  };
}

/** Queues a message, inside the caller's transaction, so it exists exactly when the event that causes it does. */
export async function enqueueMail(db: Kysely<Database>, mail: OutgoingMail, now = new Date()): Promise<string> {
  const row = outboxRow(mail, now);
  await db.insertInto("mail_outbox").values(row).execute();
  return row.id;
}

const ROWS_PER_INSERT = 200;

/** Queues many messages (a digest's) in a few multi-row inserts, inside the caller's transaction. */
export async function enqueueMails(db: Kysely<Database>, mails: OutgoingMail[], now = new Date()): Promise<number> {
  const rows = mails.map((mail) => outboxRow(mail, now));
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await db.insertInto("mail_outbox").values(rows.slice(start, start + ROWS_PER_INSERT)).execute();
  }
  return rows.length;
}

/**
 * Claims up to `limit` due messages for `claim.owner` until `claim.leaseMs` from now. On PostgreSQL the rows are
 * picked with FOR UPDATE SKIP LOCKED, so several app instances never claim the same message at once; SQLite has a
 * single writer. A claim that is not settled (the process died, or is still busy with earlier messages of its batch)
 * expires and another worker may claim the message; the first holder then finds it no longer its own.
 */
export async function claimDueMail(db: Kysely<Database>, limit: number, claim: Claim, now = new Date()): Promise<QueuedMail[]> {
  const lockedUntil = new Date(now.getTime() + claim.leaseMs).toISOString();
  return db.transaction().execute(async (trx) => {
    const ids = await claimableIds(trx, "mail_outbox", limit, now);
    if (ids.length === 0) return [];
    const rows = await trx
      .updateTable("mail_outbox")
      .set({ locked_until: lockedUntil, claimed_by: claim.owner })
      .where("id", "in", ids)
      .returning(["id", "kind", "recipient", "subject", "text_body", "html_body", "mail_headers", "reply_to", "calendar_ics", "attachments", "attempts", "attempt_started_at", "handed_over_at"])
      .execute();
    return rows.map(({ attempt_started_at, handed_over_at, ...mail }) => ({
      ...mail,
      outcomeUnknownSince: attempt_started_at ? new Date(attempt_started_at).toISOString() : null,
      handedOverAt: handed_over_at ? new Date(handed_over_at).toISOString() : null,
    }));
  });
}

/** The holder's settlement of a message; does nothing (false) when the claim has passed to another worker. */
function settleHeld(db: Kysely<Database>, id: string, owner: string) {
  return db.updateTable("mail_outbox").where("id", "=", id).where("status", "=", "pending").where("claimed_by", "=", owner);
}

function changed(result: { numUpdatedRows: bigint }): boolean {
  return result.numUpdatedRows > 0n;
}

/**
 * Records, before the SMTP data is ended, that the whole message is in the server's hands (decision
 * "mail-end-of-data"): from this commit on a crash leaves the message counted as sent, never sent again. Only the
 * holder of a started attempt can; false means the claim passed to another worker, and the data must not be ended.
 */
export async function markHandedOver(db: Kysely<Database>, id: string, owner: string, now = new Date()): Promise<boolean> {
  const result = await settleHeld(db, id, owner).where("attempt_started_at", "is not", null).set({ handed_over_at: now.toISOString() }).executeTakeFirst();
  return changed(result);
}

/**
 * Settles as sent a message handed over without the server's answer recorded (its sender died after the end of its
 * data was on its way, or no answer came): the server has it, or refused it after the whole message, which we can no
 * longer learn. `handed_over_at` stays, to tell these apart from a confirmed delivery.
 */
export async function markSentUnconfirmed(db: Kysely<Database>, id: string, owner: string, now = new Date()): Promise<boolean> {
  const result = await settleHeld(db, id, owner)
    .where("handed_over_at", "is not", null)
    .set({ status: "sent", sent_at: now.toISOString(), locked_until: null, attempt_started_at: null, attachments: null, last_error: "handed over; the server's answer was never recorded" })
    .executeTakeFirst();
  return changed(result);
}

/**
 * A settled message keeps its row (what went to whom, and when) but not its attachments: an attached contacts export
 * (decision 66) is a copy of the project's contacts that no one needs once it is sent or given up.
 */
export async function markSent(db: Kysely<Database>, id: string, owner: string, now = new Date()): Promise<boolean> {
  const result = await settleHeld(db, id, owner)
    .set({ status: "sent", sent_at: now.toISOString(), locked_until: null, attempt_started_at: null, handed_over_at: null, attachments: null, last_error: null })
    .executeTakeFirst();
  return changed(result);
}

/** The server refused the message or the send failed while this process lived: nothing was delivered, the mark goes. */
export async function markForRetry(db: Kysely<Database>, id: string, owner: string, error: string, retryAt: Date): Promise<boolean> {
  const result = await settleHeld(db, id, owner)
    .set({ next_attempt_at: retryAt.toISOString(), locked_until: null, claimed_by: null, attempt_started_at: null, handed_over_at: null, last_error: error.slice(0, 1000) })
    .executeTakeFirst();
  return changed(result);
}

export async function markFailed(db: Kysely<Database>, id: string, owner: string, error: string): Promise<boolean> {
  const result = await settleHeld(db, id, owner)
    .set({ status: "failed", locked_until: null, attempt_started_at: null, handed_over_at: null, attachments: null, last_error: error.slice(0, 1000) })
    .executeTakeFirst();
  return changed(result);
}
