import type { Kysely, Migration } from "kysely";

/**
 * The code a booth link shows: a QR code's id, `plain` for the pitch address without an event, or
 * null for the project's default booth code. Chosen when the link is made, and re-pointable.
 */
export const boothLinkCode: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("booth_links").addColumn("code_id", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("booth_links").dropColumn("code_id").execute();
  },
};
