import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Idempotency keys of the public forms (decision 13): a submission kept on a phone while offline may arrive
 * more than once; the key, unique per project, is written in the transaction of the submission it stands
 * for, with the answer to repeat.
 */
export const visitorSubmissionKeys: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("visitor_submissions")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("idempotency_key", "text", (c) => c.notNull())
      .addColumn("intent", "text", (c) => c.notNull())
      .addColumn("outcome", t.json, (c) => c.notNull())
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .addPrimaryKeyConstraint("visitor_submissions_pk", ["project_id", "idempotency_key"])
      .execute();
  },
};
