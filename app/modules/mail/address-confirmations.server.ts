import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { isConfirmationTokenShape } from "~/modules/http/id-shape";
import { hashSingleUseToken, newSingleUseToken } from "~/modules/tokens/single-use-token.server";

/**
 * Proof that whoever acts in an address's name controls it (decision 37): a single-use link mailed to the address.
 * Nothing happens on the word of whoever typed the address; the action runs when the link's page is confirmed.
 */
export type ConfirmationPurpose = "unsubscribe" | "saved-list" | "saved-list-stop" | "subscription";

/** How long a mailed confirmation link keeps working: long enough to be opened later that day, not for weeks. */
export const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;

/** Why a link does not work: nothing is done for it. */
export type ConfirmationFailure = { status: "unknown" | "expired" | "used" };

/** What a link is: one that works (with its address and what it was for), or why it does not. */
export type ConfirmationCheck<Payload> = { status: "valid"; email: string; payload: Payload } | ConfirmationFailure;

/** Stores a new link for `email` (as a form's schema gave it: lower-case), inside the caller's transaction with the mail that carries it; answers its token. */
export async function createAddressConfirmation(
  db: Kysely<Database>,
  request: { purpose: ConfirmationPurpose; email: string; payload?: unknown; ttlMs?: number },
  now = new Date(),
): Promise<string> {
  const { token, hash } = newSingleUseToken();
  await db
    .insertInto("address_confirmations")
    .values({
      token_hash: hash,
      purpose: request.purpose,
      email: request.email,
      action_data: request.payload ?? null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + (request.ttlMs ?? CONFIRMATION_TTL_MS)).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}

/** Reads a link without using it (a page opened by a mail scanner changes nothing). */
export async function checkAddressConfirmation<Payload>(
  db: Kysely<Database>,
  purpose: ConfirmationPurpose,
  token: string,
  now = new Date(),
): Promise<ConfirmationCheck<Payload>> {
  if (!isConfirmationTokenShape(token)) return { status: "unknown" };
  const row = await db
    .selectFrom("address_confirmations")
    .select(["email", "action_data", "expires_at", "used_at"])
    .where("token_hash", "=", hashSingleUseToken(token))
    .where("purpose", "=", purpose)
    .executeTakeFirst();
  if (!row) return { status: "unknown" };
  if (row.used_at !== null) return { status: "used" };
  if (Date.parse(row.expires_at) <= now.getTime()) return { status: "expired" };
  return { status: "valid", email: row.email, payload: row.action_data as Payload };
}

/**
 * Uses a link once: of two confirmations at the same moment, exactly one finds it valid (a single conditional
 * update), and the other is told it was used. Run it in the transaction of the action it confirms.
 */
export async function useAddressConfirmation<Payload>(
  db: Kysely<Database>,
  purpose: ConfirmationPurpose,
  token: string,
  now = new Date(),
): Promise<ConfirmationCheck<Payload>> {
  if (!isConfirmationTokenShape(token)) return { status: "unknown" };
  const row = await db
    .updateTable("address_confirmations")
    .set({ used_at: now.toISOString() })
    .where("token_hash", "=", hashSingleUseToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .returning(["email", "action_data"])
    .executeTakeFirst();
  if (row) return { status: "valid", email: row.email, payload: row.action_data as Payload };
  const check = await checkAddressConfirmation<Payload>(db, purpose, token, now);
  // Not usable now, yet valid when read: it expired between the two statements.
  return check.status === "valid" ? { status: "expired" } : check;
}
