import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Proof that a person controls an e-mail address (decision 37): a single-use link mailed to the address, for an
 * action nobody else may take in its name (unsubscribing it by a typed address, mailing it a saved list). Only the
 * token's sha256 is stored; a link ends at `expires_at` or once `used_at` is set. `action_data` is what the action
 * needs when confirmed (JSON).
 */
export const addressConfirmations: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("address_confirmations")
      .addColumn("token_hash", "text", (c) => c.primaryKey())
      .addColumn("purpose", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("action_data", t.json)
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addColumn("expires_at", t.timestamp, (c) => c.notNull())
      .addColumn("used_at", t.timestamp)
      .execute();
    await db.schema.createIndex("address_confirmations_expires_idx").on("address_confirmations").column("expires_at").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("address_confirmations").execute();
  },
};
