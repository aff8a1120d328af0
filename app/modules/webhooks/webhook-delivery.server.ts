import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { sql, type Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import { retryDelayMs } from "~/modules/mail/mail-worker.server";
import { claimableIds } from "~/modules/mail/outbox.server";
import { RecurringPass } from "~/modules/mail/recurring-pass.server";
import { signWebhook } from "./webhooks.server";
import { resolveWebhookTarget, WebhookTargetRefused, type Resolver, type WebhookTargetPolicy } from "./webhook-target.server";

export const WEBHOOK_MAX_ATTEMPTS = 10;
const LOCK_MS = 2 * 60_000;
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
  return new Promise((resolvePromise, reject) => {
    const request = client.request(
      {
        method: "POST",
        host: target.hostname,
        port: target.url.port || undefined,
        path: `${target.url.pathname}${target.url.search}`,
        headers: { ...headers, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)), Host: target.url.host },
        lookup: pinned,
        agent: false,
        timeout: TIMEOUT_MS,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolvePromise({ status: response.statusCode ?? 0, location: response.headers.location ?? null }));
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on("error", reject);
    request.end(body);
  });
}

type ClaimedDelivery = { id: string; event_type: string; payload: string; attempts: number; url: string; secret: string };

/**
 * Claims up to `limit` due deliveries for `lockMs`, as the mail outbox does: PostgreSQL picks them with FOR UPDATE
 * SKIP LOCKED, so two workers never claim the same delivery; SQLite has a single writer. A claim that is never
 * settled (the process died) expires and the delivery is tried again.
 */
export async function claimDueDeliveries(db: Kysely<Database>, limit: number, lockMs: number, now = new Date()): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    const ids = await claimableIds(trx, "webhook_deliveries", limit, now);
    if (ids.length === 0) return [];
    await trx
      .updateTable("webhook_deliveries")
      .set({ locked_until: new Date(now.getTime() + lockMs).toISOString(), attempts: sql`attempts + 1` })
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
export class WebhookWorker {
  readonly #passes: RecurringPass<number>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: WebhookTargetPolicy,
    private readonly logger: Logger,
    private readonly options: { clock?: () => Date; resolve?: Resolver } = {},
  ) {
    this.#passes = new RecurringPass(
      () => this.#deliverDue(),
      (error) => this.logger.error({ err: error }, "webhook worker pass failed"),
    );
  }

  #now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  runOnce(): Promise<number> {
    return this.#passes.runOnce();
  }

  start(intervalMs = 5_000): void {
    this.#passes.start(intervalMs);
  }

  /** Starts a pass now, without waiting: called after a visitor's write queued deliveries. */
  wake(): void {
    this.#passes.wake();
  }

  stop(): Promise<void> {
    return this.#passes.stop();
  }

  async #deliverDue(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const batch = await claimDueDeliveries(this.db, 10, LOCK_MS, this.#now());
      if (batch.length === 0) return delivered;
      for (const delivery of batch) if (await this.#deliver(delivery)) delivered += 1;
    }
  }

  async #deliver(delivery: ClaimedDelivery): Promise<boolean> {
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
        await this.db
          .updateTable("webhook_deliveries")
          .set({ status: "sent", delivered_at: this.#now().toISOString(), locked_until: null, last_error: null, response_status: response.status })
          .where("id", "=", delivery.id)
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
      await this.db
        .updateTable("webhook_deliveries")
        .set({ status: "failed", locked_until: null, last_error: reason, response_status: responseStatus })
        .where("id", "=", delivery.id)
        .execute();
      this.logger.warn({ deliveryId: delivery.id, reason, attempts: delivery.attempts }, "webhook given up");
    } else {
      const retryAt = new Date(this.#now().getTime() + retryDelayMs(delivery.attempts));
      await this.db
        .updateTable("webhook_deliveries")
        .set({ next_attempt_at: retryAt.toISOString(), locked_until: null, last_error: reason, response_status: responseStatus })
        .where("id", "=", delivery.id)
        .execute();
      this.logger.warn({ deliveryId: delivery.id, reason, retryAt }, "webhook delivery failed; will retry");
    }
    return false;
  }
}
