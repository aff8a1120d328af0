import type { Kysely, Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * An endpoint's health: since when its deliveries have failed without one succeeding, and when it
 * was paused for failing three days on end. Both null for a healthy endpoint.
 */
export const webhookEndpointHealth: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable("webhook_endpoints").addColumn("failing_since", t.timestamp).execute();
    await db.schema.alterTable("webhook_endpoints").addColumn("paused_at", t.timestamp).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("webhook_endpoints").dropColumn("paused_at").execute();
    await db.schema.alterTable("webhook_endpoints").dropColumn("failing_since").execute();
  },
};
