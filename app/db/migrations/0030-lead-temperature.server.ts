import { sql, type Kysely, type Migration } from "kysely";

/** Hot, warm or cold: the founder's one-tap call on a lead, null until made. */
export const leadTemperature: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable("leads")
      .addColumn("temperature", "text", (c) => c.check(sql`temperature in ('hot', 'warm', 'cold')`))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("leads").dropColumn("temperature").execute();
  },
};
