import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * `mail_outbox.handed_over_at`: when the holder of a send had given the SMTP server the whole message and was about
 * to end its data (`<CRLF>.<CRLF>`). Set, the server may have the message: it is never sent again; unset, the server
 * has discarded any partial transaction: sending again is safe (decision "mail-end-of-data"). Existing rows keep null.
 */
export const mailHandedOver: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("mail_outbox").addColumn("handed_over_at", columnTypes(db).timestamp).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("mail_outbox").dropColumn("handed_over_at").execute();
  },
};
