import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { addToProjectStats } from "~/modules/analytics/project-stats.server";
import { consumeRateLimit, UNSUBSCRIBE_API_LIMITS } from "~/modules/rate-limit/rate-limit.server";

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
 * The e-mail form: every contact with this address, in any project (e-mails are stored lower-case). The caller answers
 * the same whether or not the address was known (DESIGN.md item 10), so the count is for logs only.
 */
export async function unsubscribeEmail(db: Kysely<Database>, email: string): Promise<number> {
  return db.transaction().execute((trx) => clearSubscriptions(trx, email));
}

/**
 * The JSON endpoint's unsubscribe by address, limited per client network address and per target address
 * (UNSUBSCRIBE_API_LIMITS); throws `rate_limited` past either.
 */
export async function unsubscribeEmailLimited(db: Kysely<Database>, email: string, clientIp: string): Promise<number> {
  await consumeRateLimit(db, `unsubscribe-api:address:${clientIp}`, UNSUBSCRIBE_API_LIMITS.perAddress);
  await consumeRateLimit(db, `unsubscribe-api:email:${email.toLowerCase()}`, UNSUBSCRIBE_API_LIMITS.perEmail);
  return unsubscribeEmail(db, email);
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
