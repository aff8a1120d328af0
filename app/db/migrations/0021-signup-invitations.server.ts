import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Sign-up invitations (decision 39): with SIGNUP=invite an account is made only through a link a
 * signed-in founder created. Only the token's sha256 is stored; a link works once (`used_at`), until `expires_at`.
 * `used_at` is set when a sign-up claims the link and cleared again if that sign-up fails, so two sign-ups can
 * never both use one link.
 */
export const signupInvitations: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("signup_invitations")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("invited_by", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", t.timestamp, (c) => c.notNull())
      .addColumn("expires_at", t.timestamp, (c) => c.notNull())
      .addColumn("used_at", t.timestamp)
      .addColumn("used_by", "text", (c) => c.references("users.id").onDelete("set null"))
      .execute();
    await db.schema.createIndex("signup_invitations_invited_by_idx").on("signup_invitations").columns(["invited_by", "created_at"]).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable("signup_invitations").execute();
  },
};
