import { sql, type Kysely, type Migration } from "kysely";

/**
 * Decision 54: a lead keeps where they came from as a source (`qr:{code id}`, `direct`, `unknown`), the same key as
 * their contact's, and the inbox names it at read time from the code's current label and event tag, as the CSV and
 * the funnel do. The text `event_source` it replaces was the code's event tag at the time (else its label), which
 * could not tell two codes of one event apart and kept a renamed code's old name. Existing leads take their
 * contact's source (the contact and the lead are written in one transaction, one per person and project).
 */
export const leadSource: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("leads").addColumn("source", "text", (c) => c.notNull().defaultTo("unknown")).execute();
    await sql`update leads set source = coalesce((select contacts.source from contacts where contacts.project_id = leads.project_id and contacts.email = leads.email), 'unknown')`.execute(db);
    await db.schema.alterTable("leads").dropColumn("event_source").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("leads").addColumn("event_source", "text").execute();
    await db.schema.alterTable("leads").dropColumn("source").execute();
  },
};
