import type { Kysely, Migration } from "kysely";

/**
 * An idempotency key is bound to the request it came with (decision 41): the sha256 of the submission's
 * intent and normalised fields. Rows written before have none (null): a repeat of one is answered with its message
 * only, never with the stored blurb, since nothing shows it is the same visitor's request.
 */
export const submissionFingerprints: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("visitor_submissions").addColumn("request_fingerprint", "text").execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable("visitor_submissions").dropColumn("request_fingerprint").execute();
  },
};
