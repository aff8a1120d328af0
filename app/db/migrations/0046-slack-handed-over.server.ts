import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * `alert_deliveries.handed_over_at`: when the holder of a Slack post had sent all of it but its last byte and was
 * sending that. Set, Slack may have posted it: it is never posted again; unset, Slack never read the whole request
 * and discarded it: posting again is safe (decision "delivery-guarantees-per-channel"). Existing rows keep null.
 */
export const slackHandedOver: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("alert_deliveries").addColumn("handed_over_at", columnTypes(db).timestamp).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("alert_deliveries").dropColumn("handed_over_at").execute();
  },
};
