import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Decision 77: replies and captures are limited per account and per project, counted from their own rows.
 * - `lead_follow_ups.to_met_only`: the reply went to a person who never acted on the pitch page themselves (only met
 *   in person, or added by hand), so it counts against the stricter daily cap. Kept on the row as it was when sent,
 *   so a later form of theirs does not change what was counted.
 * - Indexes for counting a window of rows per author and per project, newest first.
 */
export const outreachLimits: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("lead_follow_ups").addColumn("to_met_only", t.boolean, (c) => c.notNull().defaultTo(t.false)).execute();
    await db.schema.createIndex("lead_follow_ups_author_idx").on("lead_follow_ups").columns(["author_id", "kind", "created_at"]).execute();
    await db.schema.createIndex("lead_follow_ups_project_idx").on("lead_follow_ups").columns(["project_id", "kind", "created_at"]).execute();
    await db.schema.createIndex("lead_captures_added_by_idx").on("lead_captures").columns(["added_by", "created_at"]).execute();
    await db.schema.createIndex("lead_captures_project_idx").on("lead_captures").columns(["project_id", "created_at"]).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("lead_captures_project_idx").execute();
    await db.schema.dropIndex("lead_captures_added_by_idx").execute();
    await db.schema.dropIndex("lead_follow_ups_project_idx").execute();
    await db.schema.dropIndex("lead_follow_ups_author_idx").execute();
    await db.schema.alterTable("lead_follow_ups").dropColumn("to_met_only").execute();
  },
};
