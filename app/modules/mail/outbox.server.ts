import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import { dialectOf } from "~/db/dialect.server";
import type { Database, MailOutboxTable } from "~/db/schema";
import { isSingleMailbox } from "./address";

export type OutgoingMail = {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Extra headers (List-Unsubscribe, …); values are single-line by construction. */
  headers?: Record<string, string>;
};

export type QueuedMail = Pick<Selectable<MailOutboxTable>, "id" | "kind" | "recipient" | "subject" | "text_body" | "html_body" | "mail_headers" | "attempts">;

/** No line breaks in anything that becomes a header: a visitor's name or subject cannot add headers or recipients. */
export function singleLine(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
}

function outboxRow(mail: OutgoingMail, now: Date) {
  if (!isSingleMailbox(mail.to)) throw new Error(`refusing to queue mail for ${JSON.stringify(mail.to)}: not a single address`);
  return {
    id: crypto.randomUUID(),
    kind: mail.kind,
    recipient: singleLine(mail.to),
    subject: singleLine(mail.subject),
    text_body: mail.text,
    html_body: mail.html ?? null,
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
 * The ids of up to `limit` pending rows of a delivery queue (mail, webhooks) that are due and not claimed, or whose
 * claim expired, to be claimed in the caller's transaction. On PostgreSQL rows another worker is claiming are
 * skipped (FOR UPDATE SKIP LOCKED); SQLite has a single writer.
 */
export async function claimableIds(trx: Transaction<Database>, table: "mail_outbox" | "webhook_deliveries", limit: number, now: Date): Promise<string[]> {
  const nowIso = now.toISOString();
  let due = trx
    .selectFrom(table)
    .select("id")
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", nowIso)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", nowIso)]))
    .orderBy("next_attempt_at")
    .limit(limit);
  if (dialectOf(trx) === "postgres") due = due.forUpdate().skipLocked();
  return (await due.execute()).map((row) => row.id);
}

/**
 * Claims up to `limit` due messages for `lockMs`. On PostgreSQL the rows are picked with FOR UPDATE SKIP LOCKED,
 * so several app instances never claim the same message; SQLite has a single writer. A claim that is not
 * settled (the process died mid-send) expires and the message is tried again.
 */
export async function claimDueMail(db: Kysely<Database>, limit: number, lockMs: number, now = new Date()): Promise<QueuedMail[]> {
  const lockedUntil = new Date(now.getTime() + lockMs).toISOString();
  return db.transaction().execute(async (trx) => {
    const ids = await claimableIds(trx, "mail_outbox", limit, now);
    if (ids.length === 0) return [];
    return trx
      .updateTable("mail_outbox")
      .set({ locked_until: lockedUntil, attempts: sql`attempts + 1` })
      .where("id", "in", ids)
      .returning(["id", "kind", "recipient", "subject", "text_body", "html_body", "mail_headers", "attempts"])
      .execute();
  });
}

export async function markSent(db: Kysely<Database>, id: string, now = new Date()): Promise<void> {
  await db.updateTable("mail_outbox").set({ status: "sent", sent_at: now.toISOString(), locked_until: null, last_error: null }).where("id", "=", id).execute();
}

export async function markForRetry(db: Kysely<Database>, id: string, error: string, retryAt: Date): Promise<void> {
  await db
    .updateTable("mail_outbox")
    .set({ next_attempt_at: retryAt.toISOString(), locked_until: null, last_error: error.slice(0, 1000) })
    .where("id", "=", id)
    .execute();
}

export async function markFailed(db: Kysely<Database>, id: string, error: string): Promise<void> {
  await db.updateTable("mail_outbox").set({ status: "failed", locked_until: null, last_error: error.slice(0, 1000) }).where("id", "=", id).execute();
}
