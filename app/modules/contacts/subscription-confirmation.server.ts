import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { checkAddressConfirmation, useAddressConfirmation, type ConfirmationFailure } from "~/modules/mail/address-confirmations.server";

/**
 * The link mailed to an address the project's own team subscribed (decision 79). Opening it changes nothing; its
 * page's button confirms the subscription, once, and from then on the address gets the project's updates.
 */

type SubscriptionPayload = { contactId: string };

/** A link that works, with the project it is for; `stopped` when the address has stopped this project's e-mail since. */
export type SubscriptionConfirmationCheck = { status: "valid"; email: string; projectTitle: string } | { status: "stopped"; projectTitle: string } | ConfirmationFailure;

async function pendingSubscription(db: Kysely<Database>, email: string, payload: SubscriptionPayload | null) {
  if (!payload || typeof payload.contactId !== "string") return null;
  return db
    .selectFrom("contacts")
    .innerJoin("projects", "projects.id", "contacts.project_id")
    .select(["contacts.id", "contacts.subscribed", "projects.title"])
    .where("contacts.id", "=", payload.contactId)
    .where("contacts.email", "=", email)
    .executeTakeFirst();
}

/** What the link's page shows before anything changes. */
export async function checkSubscriptionConfirmation(db: Kysely<Database>, token: string, now = new Date()): Promise<SubscriptionConfirmationCheck> {
  const check = await checkAddressConfirmation<SubscriptionPayload | null>(db, "subscription", token, now);
  if (check.status !== "valid") return check;
  const contact = await pendingSubscription(db, check.email, check.payload);
  if (!contact) return { status: "unknown" };
  if (!contact.subscribed) return { status: "stopped", projectTitle: contact.title };
  return { status: "valid", email: check.email, projectTitle: contact.title };
}

/** The page's button: uses the link once and confirms the subscription, in one transaction. */
export async function confirmSubscription(db: Kysely<Database>, token: string, now = new Date()): Promise<SubscriptionConfirmationCheck> {
  return db.transaction().execute(async (trx) => {
    const check = await useAddressConfirmation<SubscriptionPayload | null>(trx, "subscription", token, now);
    if (check.status !== "valid") return check;
    const contact = await pendingSubscription(trx, check.email, check.payload);
    if (!contact) return { status: "unknown" };
    if (!contact.subscribed) return { status: "stopped", projectTitle: contact.title };
    await trx.updateTable("contacts").set({ awaiting_confirmation: false }).where("id", "=", contact.id).execute();
    return { status: "valid", email: check.email, projectTitle: contact.title };
  });
}
