import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Addresses that said "not me, stop" to a kind of mail anyone can ask us to send them (decision 38: the saved list
 * and its confirmation). One row per address and kind; nothing of that kind is queued to the address again.
 */
export const mailBlocks: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("mail_blocks")
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint("mail_blocks_pk", ["email", "kind"])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("mail_blocks").execute();
  },
};
