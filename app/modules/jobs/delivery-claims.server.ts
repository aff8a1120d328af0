import { sql, type Kysely, type Transaction } from "kysely";
import { dialectOf } from "~/db/dialect.server";
import type { Database } from "~/db/schema";

/** The tables of queued deliveries that share the claim: e-mails, webhook deliveries, pushes and Slack posts. */
export type DeliveryQueue = "mail_outbox" | "webhook_deliveries" | "alert_deliveries";

/**
 * The ids of up to `limit` pending rows of a delivery queue (mail, webhooks) that are due and not claimed, or whose
 * claim expired, to be claimed in the caller's transaction. On PostgreSQL rows another worker is claiming are
 * skipped (FOR UPDATE SKIP LOCKED); SQLite has a single writer.
 */
export async function claimableIds(trx: Transaction<Database>, table: DeliveryQueue, limit: number, now: Date): Promise<string[]> {
  return (await claimable(trx, table, limit, now).execute()).map((row) => row.id);
}

/**
 * The query behind `claimableIds`, for a queue that narrows it further (webhooks leave out the endpoints this worker
 * is already posting to) and reads more of each row.
 */
export function claimable(trx: Transaction<Database>, table: DeliveryQueue, limit: number, now: Date) {
  const nowIso = now.toISOString();
  const due = trx
    .selectFrom(table)
    .select("id")
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", nowIso)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", nowIso)]))
    .orderBy("next_attempt_at")
    .limit(limit);
  return dialectOf(trx) === "postgres" ? due.forUpdate().skipLocked() : due;
}

/** A worker's claim on queued rows: who holds it, and for how long from each renewal. */
export type Claim = { owner: string; leaseMs: number };

/**
 * Claims, for a queue sent one delivery at a time per destination (an endpoint, a device, a Slack URL), the first
 * of each destination among `candidates` (oldest due first) that `skip` does not rule out, up to `limit`: leased to
 * `claim.owner` in the caller's transaction. Resolves with the ids claimed.
 */
export async function claimOldestPerDestination<Row extends { id: string }>(
  trx: Transaction<Database>,
  table: DeliveryQueue,
  candidates: readonly Row[],
  destinationOf: (row: Row) => string,
  { limit, claim, now, skip = () => false }: { limit: number; claim: Claim; now: Date; skip?: (destination: string) => boolean },
): Promise<string[]> {
  const oldestPerDestination = new Map<string, string>();
  for (const row of candidates) {
    if (oldestPerDestination.size >= limit) break;
    const destination = destinationOf(row);
    if (!oldestPerDestination.has(destination) && !skip(destination)) oldestPerDestination.set(destination, row.id);
  }
  const ids = [...oldestPerDestination.values()];
  if (ids.length === 0) return ids;
  await trx
    .updateTable(table)
    .set({ locked_until: new Date(now.getTime() + claim.leaseMs).toISOString(), claimed_by: claim.owner })
    .where("id", "in", ids)
    .execute();
  return ids;
}

/**
 * Starts one attempt at a claimed row of a delivery queue (a message, a webhook delivery): only while `claim.owner`
 * still holds it, renewing the lease from now (longer than a send can take, so nobody else can claim it while this
 * send may be in flight) and counting the attempt. Resolves with the attempt number, or null when the claim passed
 * to another worker: then this one must not send it.
 */
export async function startAttempt(db: Kysely<Database>, table: DeliveryQueue, id: string, claim: Claim, now = new Date()): Promise<number | null> {
  const row = await db
    .updateTable(table)
    .set({ locked_until: new Date(now.getTime() + claim.leaseMs).toISOString(), attempt_started_at: now.toISOString(), attempts: sql`attempts + 1` })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("claimed_by", "=", claim.owner)
    .returning("attempts")
    .executeTakeFirst();
  return row ? Number(row.attempts) : null;
}
