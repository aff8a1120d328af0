import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 83: an account's address is confirmed (better-auth's `email_verified`, set by the link mailed at sign-up)
 * before the app mails it anything but that link and a password reset. Accounts that exist when this runs were made
 * before any address was confirmed; they are waived (`email_confirmation_waived`), so their alerts and reports keep
 * arriving. A waiver is not a proof: what needs a proven address (My signals matching a visitor's e-mail) still
 * reads `email_verified` alone.
 */
export const emailConfirmation: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("users").addColumn("email_confirmation_waived", t.boolean, (c) => c.notNull().defaultTo(t.false)).execute();
    await db.updateTable("users").set({ email_confirmation_waived: t.true }).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("users").dropColumn("email_confirmation_waived").execute();
  },
};
