import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { enqueueMails, type OutgoingMail } from "./outbox.server";

/**
 * Mail to a founder's or member's own account address (alerts, daily summaries, the morning-after report, a paused
 * webhook, the test e-mail) goes only to an address the account confirmed (decision 83): through the link mailed at
 * sign-up, or waived for an account made before addresses were confirmed. Until then the app sends that address the
 * confirmation link and a password reset, nothing else; pushes and Slack are not e-mail and are not held.
 */
export function mailableAccount(eb: ExpressionBuilder<Database, "users">) {
  return eb.or([eb("users.email_verified", "=", true), eb("users.email_confirmation_waived", "=", true)]);
}

/** Whether the account of `userId` may be mailed at its address. */
export async function accountMailable(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom("users").select("users.id").where("users.id", "=", userId).where(mailableAccount).executeTakeFirst();
  return row !== undefined;
}

/** Queues the mails whose recipient is a mailable account's address, inside the caller's transaction; the others are dropped. */
export async function enqueueAccountMails(db: Kysely<Database>, mails: OutgoingMail[], now = new Date()): Promise<number> {
  if (mails.length === 0) return 0;
  const addresses = [...new Set(mails.map((mail) => mail.to.toLowerCase()))];
  const mailable = new Set<string>();
  for (let start = 0; start < addresses.length; start += ADDRESSES_PER_QUERY) {
    const rows = await db
      .selectFrom("users")
      .select("users.email")
      .where("users.email", "in", addresses.slice(start, start + ADDRESSES_PER_QUERY))
      .where(mailableAccount)
      .execute();
    for (const row of rows) mailable.add(row.email.toLowerCase());
  }
  return enqueueMails(db, mails.filter((mail) => mailable.has(mail.to.toLowerCase())), now);
}

const ADDRESSES_PER_QUERY = 500;

/** One mail to an account's address: queued when the account is mailable, else dropped. Resolves whether it was queued. */
export async function enqueueAccountMail(db: Kysely<Database>, mail: OutgoingMail, now = new Date()): Promise<boolean> {
  return (await enqueueAccountMails(db, [mail], now)) === 1;
}
