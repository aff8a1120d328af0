import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import { newWorkerId, retryDelayMs } from "~/modules/mail/mail-worker.server";
import { claimableIds, startAttempt, type Claim } from "~/modules/mail/outbox.server";
import { RecurringPass } from "~/modules/mail/recurring-pass.server";
import { signWebhook } from "./webhooks.server";
import { resolveWebhookTarget, WebhookTargetRefused, type Resolver, type WebhookTargetPolicy } from "./webhook-target.server";

export const WEBHOOK_MAX_ATTEMPTS = 10;
const LEASE_MS = 2 * 60_000;
/** The whole POST, from connecting to the end of the answer; well under the claim's lease. */
const TIMEOUT_MS = 10_000;

export type WebhookResponse = { status: number; location: string | null };

/**
 * POSTs a body to a checked target, connecting to the address `resolveWebhookTarget` chose (the socket's lookup is
 * pinned to it; TLS still verifies the certificate for the host name). Redirects are never followed: a 3xx is an
 * answer like any other non-2xx, so a redirect cannot lead the request to an address that was not checked.
 */
export async function postWebhook(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  policy: WebhookTargetPolicy,
  resolve?: Resolver,
): Promise<WebhookResponse> {
  const target = await resolveWebhookTarget(rawUrl, policy, resolve);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === "https:" ? https : http;
  let deadline: NodeJS.Timeout | undefined;
  return new Promise<WebhookResponse>((resolvePromise, reject) => {
    const request = client.request(
      {
        method: "POST",
        host: target.hostname,
        port: target.url.port || undefined,
        path: `${target.url.pathname}${target.url.search}`,
        headers: { ...headers, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)), Host: target.url.host },
        lookup: pinned,
        agent: false,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolvePromise({ status: response.statusCode ?? 0, location: response.headers.location ?? null }));
        response.on("error", reject);
      },
    );
    // A deadline for the whole request, not an idle timeout: a slowly trickling answer cannot outlast the claim.
    deadline = setTimeout(() => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    request.on("error", reject);
    request.end(body);
  }).finally(() => clearTimeout(deadline));
}

type ClaimedDelivery = { id: string; event_type: string; payload: string; attempts: number; url: string; secret: string };

/**
 * Claims up to `limit` due deliveries for `claim.owner`, as the mail outbox does: PostgreSQL picks them with FOR
 * UPDATE SKIP LOCKED, so two workers never claim the same delivery at once; SQLite has a single writer. A claim that
 * is never settled (the process died) expires and the delivery is tried again; each POST first renews the claim
 * (`startAttempt`), and only the holder settles it.
 */
export async function claimDueDeliveries(db: Kysely<Database>, limit: number, claim: Claim, now = new Date()): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    const ids = await claimableIds(trx, "webhook_deliveries", limit, now);
    if (ids.length === 0) return [];
    await trx
      .updateTable("webhook_deliveries")
      .set({ locked_until: new Date(now.getTime() + claim.leaseMs).toISOString(), claimed_by: claim.owner })
      .where("id", "in", ids)
      .execute();
    const rows = await trx
      .selectFrom("webhook_deliveries")
      .innerJoin("webhook_endpoints", "webhook_endpoints.id", "webhook_deliveries.endpoint_id")
      .select(["webhook_deliveries.id", "webhook_deliveries.event_type", "webhook_deliveries.payload", "webhook_deliveries.attempts", "webhook_endpoints.url", "webhook_endpoints.secret"])
      .where("webhook_deliveries.id", "in", ids)
      .execute();
    return rows.map((row) => ({ ...row, attempts: Number(row.attempts) }));
  });
}

/**
 * Delivers queued webhooks: claims what is due, POSTs each signed, and records the outcome. A 2xx is delivered; any
 * other answer, a timeout or a refused connection is retried with the mail outbox's backoff (30 s doubling to an
 * hour, ten attempts); a URL that now points inside the network is given up at once.
 */
export class WebhookWorker extends RecurringPass<number> {
  readonly #claim: Claim;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: WebhookTargetPolicy,
    private readonly logger: Logger,
    private readonly options: { clock?: () => Date; resolve?: Resolver; owner?: string } = {},
  ) {
    super();
    this.#claim = { owner: options.owner ?? newWorkerId("webhooks"), leaseMs: LEASE_MS };
  }

  #now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  protected passFailed(error: unknown): void {
    this.logger.error({ err: error }, "webhook worker pass failed");
  }

  protected async pass(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const batch = await claimDueDeliveries(this.db, 10, this.#claim, this.#now());
      if (batch.length === 0) return delivered;
      for (const delivery of batch) if (await this.#deliver(delivery)) delivered += 1;
    }
  }

  /** Settles a delivery this worker still holds; a claim that passed to another worker is left to it. */
  #settleHeld(id: string) {
    return this.db
      .updateTable("webhook_deliveries")
      .where("id", "=", id)
      .where("status", "=", "pending")
      .where("claimed_by", "=", this.#claim.owner);
  }

  async #deliver(claimed: ClaimedDelivery): Promise<boolean> {
    const attempts = await startAttempt(this.db, "webhook_deliveries", claimed.id, this.#claim, this.#now());
    if (attempts === null) return false;
    const delivery = { ...claimed, attempts };
    const timestamp = Math.floor(this.#now().getTime() / 1000);
    const headers = {
      "User-Agent": "PitchQR-Webhooks/1",
      "X-PitchQR-Event": delivery.event_type,
      "X-PitchQR-Delivery": delivery.id,
      "X-PitchQR-Timestamp": String(timestamp),
      "X-PitchQR-Signature": signWebhook(delivery.secret, timestamp, delivery.payload),
    };
    let failure: string;
    let responseStatus: number | null = null;
    let permanent = false;
    try {
      const response = await postWebhook(delivery.url, delivery.payload, headers, this.policy, this.options.resolve);
      responseStatus = response.status;
      if (response.status >= 200 && response.status < 300) {
        await this.#settleHeld(delivery.id)
          .set({ status: "sent", delivered_at: this.#now().toISOString(), locked_until: null, attempt_started_at: null, last_error: null, response_status: response.status })
          .execute();
        this.logger.info({ deliveryId: delivery.id, event: delivery.event_type, status: response.status }, "webhook delivered");
        return true;
      }
      failure =
        response.status >= 300 && response.status < 400
          ? `answered ${response.status} (redirects are not followed${response.location ? `: ${response.location}` : ""})`
          : `answered ${response.status}`;
    } catch (error) {
      permanent = error instanceof WebhookTargetRefused;
      failure = error instanceof Error ? error.message : String(error);
    }
    const reason = failure.slice(0, 500);
    if (permanent || delivery.attempts >= WEBHOOK_MAX_ATTEMPTS) {
      await this.#settleHeld(delivery.id)
        .set({ status: "failed", locked_until: null, attempt_started_at: null, last_error: reason, response_status: responseStatus })
        .execute();
      this.logger.warn({ deliveryId: delivery.id, reason, attempts: delivery.attempts }, "webhook given up");
    } else {
      const retryAt = new Date(this.#now().getTime() + retryDelayMs(delivery.attempts));
      await this.#settleHeld(delivery.id)
        .set({ next_attempt_at: retryAt.toISOString(), locked_until: null, claimed_by: null, attempt_started_at: null, last_error: reason, response_status: responseStatus })
        .execute();
      this.logger.warn({ deliveryId: delivery.id, reason, retryAt }, "webhook delivery failed; will retry");
    }
    return false;
  }
}
