import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * One qualifying question per project: its text (null: none), the answers to choose from (empty:
 * free text) and whether it is required; each intro and signal keeps its answer, and the lead the latest answer with
 * the question as it was asked.
 */
export const qualifyingQuestion: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("projects").addColumn("question_prompt", "text").execute();
    await db.schema
      .alterTable("projects")
      .addColumn("question_options", t.json, (c) => c.notNull().defaultTo(t.emptyList))
      .execute();
    await db.schema
      .alterTable("projects")
      .addColumn("question_required", t.boolean, (c) => c.notNull().defaultTo(t.false))
      .execute();
    await db.schema.alterTable("intros").addColumn("answer", "text").execute();
    await db.schema.alterTable("signals").addColumn("answer", "text").execute();
    await db.schema.alterTable("leads").addColumn("question", "text").execute();
    await db.schema.alterTable("leads").addColumn("answer", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("leads").dropColumn("answer").execute();
    await db.schema.alterTable("leads").dropColumn("question").execute();
    await db.schema.alterTable("signals").dropColumn("answer").execute();
    await db.schema.alterTable("intros").dropColumn("answer").execute();
    await db.schema.alterTable("projects").dropColumn("question_required").execute();
    await db.schema.alterTable("projects").dropColumn("question_options").execute();
    await db.schema.alterTable("projects").dropColumn("question_prompt").execute();
  },
};
