import type { Kysely, Migration } from "kysely";

/**
 * A repeated signal updates the first (decision "visitor-mail-caps"): the signal remembers the wall entry it
 * put up, so a repeat that changes the visitor's name, message or visibility changes that entry instead of
 * adding another. Earlier signals have none (null): a repeat of one of them adds an entry only if it shows a name.
 * The index finds a contact's recent signal on a tier.
 */
export const repeatSignals: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("signals").addColumn("wall_entry_id", "integer").execute();
    await db.schema.createIndex("signals_contact_tier_created").on("signals").columns(["contact_id", "signal_tier_id", "created_at"]).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("signals_contact_tier_created").execute();
    await db.schema.alterTable("signals").dropColumn("wall_entry_id").execute();
  },
};
