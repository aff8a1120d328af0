import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * A signal's message is the founder's unless the visitor also chose to show it on the Recognition Wall.
 * `signals.message_public` keeps that choice. Visitors who signalled before never made it: the form
 * called the message a note to the founders while the wall published it. So every existing signal is private,
 * and the copies of their messages on the wall (Supporter entries, the only ones signals write) are removed;
 * the founder keeps each message on the signal and the contact.
 */
export const wallMessageChoice: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .alterTable("signals")
      .addColumn("message_public", t.boolean, (c) => c.notNull().defaultTo(t.false))
      .execute();
    await hideSignalMessagesFromWall(db);
  },
};

/** Takes the messages of signals made before the choice existed off the wall. */
export async function hideSignalMessagesFromWall(db: Kysely<any>): Promise<void> {
  await sql`update recognition_entries set message = null where type = 'Supporter' and message is not null`.execute(db);
}
