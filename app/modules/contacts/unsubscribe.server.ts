import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { addToProjectStats } from "~/modules/analytics/project-stats.server";
import { checkAddressConfirmation, createAddressConfirmation, useAddressConfirmation, type ConfirmationFailure } from "~/modules/mail/address-confirmations.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { unsubscribeConfirmationMail } from "~/modules/mail/visitor-messages.server";
import { enqueueMail } from "~/modules/mail/outbox.server";
import { consumeRateLimit, takeFromAllowance, UNSUBSCRIBE_REQUEST_LIMITS, VISITOR_MAIL_CAPS } from "~/modules/rate-limit/rate-limit.server";

/** Clears `subscribed` for every contact with this e-mail (in one project, or in all) and keeps the counters exact. */
async function clearSubscriptions(trx: Transaction<Database>, email: string, projectId?: string): Promise<number> {
  let update = trx.updateTable("contacts").set({ subscribed: false }).where("email", "=", email.toLowerCase()).where("subscribed", "=", true);
  if (projectId) update = update.where("project_id", "=", projectId);
  const changed = await update.returning("project_id").execute();
  const perProject = new Map<string, number>();
  for (const row of changed) perProject.set(row.project_id, (perProject.get(row.project_id) ?? 0) + 1);
  for (const [id, count] of perProject) await addToProjectStats(trx, id, { subscribers: -count });
  return changed.length;
}

/**
 * Every contact with this address, in any project (e-mails are stored lower-case): only once the address's owner
 * confirmed (`confirmUnsubscribeByAddress`), or where the caller already holds that proof.
 */
export async function unsubscribeEmail(db: Kysely<Database>, email: string): Promise<number> {
  return db.transaction().execute((trx) => clearSubscriptions(trx, email));
}

/** The titles of the projects this address gets e-mail about (it is subscribed to), by title. */
async function subscribedProjectTitles(db: Kysely<Database>, email: string): Promise<string[]> {
  const rows = await db
    .selectFrom("contacts")
    .innerJoin("projects", "projects.id", "contacts.project_id")
    .select("projects.title")
    .distinct()
    .where("contacts.email", "=", email.toLowerCase())
    .where("contacts.subscribed", "=", true)
    .orderBy("projects.title")
    .execute();
  return rows.map((row) => row.title);
}

/** Who typed an address on /unsubscribe (or posted it to `handle-unsubscribe`): their network address and browser. */
export type UnsubscribeRequester = { clientAddress: string; browserKey: string };

/**
 * A typed address (decision 37): nothing changes on the word of whoever typed it. When the address gets e-mail
 * about any project, it is sent a single-use link to confirm; the caller answers the same either way, so the page
 * tells nobody whether an address is known. Limited per network address, per browser and per target address
 * (throws `rate_limited` with the wait); the confirmation also counts against the address's daily visitor-mail cap.
 * `address` is as `unsubscribeSchema` gives it (trimmed and lower-case).
 */
export async function requestUnsubscribeByAddress(
  db: Kysely<Database>,
  links: Pick<MailLinks, "unsubscribeConfirmUrl">,
  requester: UnsubscribeRequester,
  address: string,
  now = new Date(),
): Promise<{ mailed: boolean }> {
  await consumeRateLimit(db, `unsubscribe:address:${requester.clientAddress}`, UNSUBSCRIBE_REQUEST_LIMITS.perAddress, now.getTime());
  await consumeRateLimit(db, `unsubscribe:browser:${requester.browserKey}`, UNSUBSCRIBE_REQUEST_LIMITS.perBrowser, now.getTime());
  await consumeRateLimit(db, `unsubscribe:email:${address}`, UNSUBSCRIBE_REQUEST_LIMITS.perEmail, now.getTime());
  return db.transaction().execute(async (trx) => {
    const projectTitles = await subscribedProjectTitles(trx, address);
    if (projectTitles.length === 0) return { mailed: false };
    if (!(await takeFromAllowance(trx, `mail:recipient:${address}`, VISITOR_MAIL_CAPS.acrossProjects, now.getTime()))) return { mailed: false };
    const token = await createAddressConfirmation(trx, { purpose: "unsubscribe", email: address }, now);
    await enqueueMail(trx, unsubscribeConfirmationMail({ to: address, projectTitles, confirmUrl: links.unsubscribeConfirmUrl(token) }), now);
    return { mailed: true };
  });
}

/** A confirmation link as its page shows it before anything changes: the address and its projects, or why not. */
export type UnsubscribeConfirmationCheck = { status: "valid"; email: string; projectTitles: string[] } | ConfirmationFailure;

export async function checkUnsubscribeConfirmation(db: Kysely<Database>, token: string, now = new Date()): Promise<UnsubscribeConfirmationCheck> {
  const check = await checkAddressConfirmation<null>(db, "unsubscribe", token, now);
  if (check.status !== "valid") return check;
  return { status: "valid", email: check.email, projectTitles: await subscribedProjectTitles(db, check.email) };
}

/**
 * The confirmation page's button: uses the link once and unsubscribes its address from every project, in one
 * transaction. Answers the projects it was subscribed to, or why the link does not work (nothing changed).
 */
export async function confirmUnsubscribeByAddress(
  db: Kysely<Database>,
  token: string,
  now = new Date(),
): Promise<{ status: "valid"; projectTitles: string[] } | ConfirmationFailure> {
  return db.transaction().execute(async (trx) => {
    const check = await useAddressConfirmation<null>(trx, "unsubscribe", token, now);
    if (check.status !== "valid") return check;
    const projectTitles = await subscribedProjectTitles(trx, check.email);
    await clearSubscriptions(trx, check.email);
    return { status: "valid", projectTitles };
  });
}

/** The contact an unsubscribe link's id stands for: itself, or the contact it was merged into (decision 22). */
async function currentContactId(db: Kysely<Database>, contactId: string): Promise<string> {
  const merge = await db.selectFrom("contact_merges").select("contact_id").where("merged_id", "=", contactId).executeTakeFirst();
  return merge?.contact_id ?? contactId;
}

/**
 * The one-click link of an e-mail: that contact's address stops receiving this project's e-mail (every contact of
 * the project with that address). Answers with the project's title, or null when the contact no longer exists.
 */
export async function unsubscribeContact(db: Kysely<Database>, contactId: string): Promise<{ projectTitle: string; changed: number } | null> {
  return db.transaction().execute(async (trx) => {
    const contact = await trx
      .selectFrom("contacts")
      .innerJoin("projects", "projects.id", "contacts.project_id")
      .select(["contacts.email", "contacts.project_id", "projects.title"])
      .where("contacts.id", "=", await currentContactId(trx, contactId))
      .executeTakeFirst();
    if (!contact) return null;
    return { projectTitle: contact.title, changed: await clearSubscriptions(trx, contact.email, contact.project_id) };
  });
}

/** The title of the project a contact belongs to, for the page that asks before unsubscribing; null when the contact is gone. */
export async function projectTitleOfContact(db: Kysely<Database>, contactId: string): Promise<string | null> {
  const row = await db
    .selectFrom("contacts")
    .innerJoin("projects", "projects.id", "contacts.project_id")
    .select("projects.title")
    .where("contacts.id", "=", await currentContactId(db, contactId))
    .executeTakeFirst();
  return row?.title ?? null;
}
