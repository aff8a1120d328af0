import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";

/**
 * Clears `subscribed` for every contact with this e-mail (any project, any letter case). The caller answers
 * the same whether or not the address was known (DESIGN.md item 10), so the count is for logs only.
 */
export async function unsubscribeEmail(db: Kysely<Database>, email: string): Promise<number> {
  const result = await db
    .updateTable("contacts")
    .set({ subscribed: false })
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .where("subscribed", "=", true)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
