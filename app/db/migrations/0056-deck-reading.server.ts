import { type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * What the deck reader needs beyond a page's shape: the page's text (from the PDF), which is the image's
 * alternative text, and the founder's choice whether visitors may download the PDF (off until they say so).
 */
export const deckReading: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("deck_pages").addColumn("text", "text", (c) => c.notNull().defaultTo("")).execute();
    await db.schema.alterTable("projects").addColumn("deck_download", t.boolean, (c) => c.notNull().defaultTo(t.false)).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("projects").dropColumn("deck_download").execute();
    await db.schema.alterTable("deck_pages").dropColumn("text").execute();
  },
};
