import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "~/db/schema";

/** SPEC.md section 5: non-empty and containing an at-sign. */
export const unsubscribeSchema = z.object({
  email: z
    .string("Please enter a valid email address.")
    .trim()
    .max(255, "Email must be less than 255 characters")
    .refine((value) => value.includes("@"), "Please enter a valid email address."),
});

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
