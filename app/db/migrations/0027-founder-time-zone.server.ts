import type { Kysely, Migration } from "kysely";

/**
 * The founder's time zone (decision 53): an IANA name, detected by the browser at sign-up and editable on My
 * Projects. Null for accounts made before it (and for a browser that sent none): their dates show in UTC until
 * the founder picks a zone.
 */
export const founderTimeZone: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("users").addColumn("time_zone", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("users").dropColumn("time_zone").execute();
  },
};
