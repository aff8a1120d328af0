import { setMaxListeners } from "node:events";
import type { Kysely } from "kysely";
import webPush from "web-push";
import type { AlertChannel, Database } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import { newWorkerId, retryDelayMs } from "~/modules/mail/mail-worker.server";
import { claimable, startAttempt, type Claim } from "~/modules/mail/outbox.server";
import { RecurringPass } from "~/modules/mail/recurring-pass.server";
import { postWebhook } from "~/modules/webhooks/webhook-delivery.server";
import { WebhookTargetRefused, type Resolver, type WebhookTargetPolicy } from "~/modules/webhooks/webhook-target.server";
import type { AlertMessage } from "./founder-alerts.server";
import { isAllowedPushEndpoint, type PushService } from "./push-services";
import type { VapidKeys } from "./vapid-keys.server";

export const ALERT_MAX_ATTEMPTS = 10;
const LEASE_MS = 2 * 60_000;
/** One push or Slack post, from connecting to the end of the answer; well under the claim's lease. */
const TIMEOUT_MS = 10_000;
/** Deliveries one pass claims and sends at once. */
export const ALERT_BATCH = 16;
/** How long a push service keeps a push for a device that is offline: a lead is news for a day. */
const PUSH_TTL_SECONDS = 24 * 60 * 60;

export type AlertDeliverySettings = {
  publicUrl: string;
  push: { vapid: VapidKeys; subject: string; services: readonly PushService[] };
  /** Slack posts follow the webhooks' rules on where they may go. */
  webhooks: WebhookTargetPolicy;
};

type ClaimedAlert = {
  id: string;
  channel: AlertChannel;
  payload: string;
  push_subscription_id: string | null;
  slack_url: string | null;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
};

/**
 * Claims up to `limit` due pushes and Slack posts for `claim.owner`, as the mail outbox and webhooks do (FOR UPDATE
 * SKIP LOCKED on PostgreSQL, the single writer on SQLite; an unsettled claim expires and is taken again).
 */
export async function claimDueAlerts(db: Kysely<Database>, limit: number, claim: Claim, now = new Date()): Promise<ClaimedAlert[]> {
  return db.transaction().execute(async (trx) => {
    const ids = (await claimable(trx, "alert_deliveries", limit, now).execute()).map((row) => row.id);
    if (ids.length === 0) return [];
    await trx
      .updateTable("alert_deliveries")
      .set({ locked_until: new Date(now.getTime() + claim.leaseMs).toISOString(), claimed_by: claim.owner })
      .where("id", "in", ids)
      .execute();
    return trx
      .selectFrom("alert_deliveries")
      .leftJoin("push_subscriptions", "push_subscriptions.id", "alert_deliveries.push_subscription_id")
      .select([
        "alert_deliveries.id",
        "alert_deliveries.channel",
        "alert_deliveries.payload",
        "alert_deliveries.push_subscription_id",
        "alert_deliveries.slack_url",
        "push_subscriptions.endpoint",
        "push_subscriptions.p256dh",
        "push_subscriptions.auth",
      ])
      .where("alert_deliveries.id", "in", ids)
      .execute();
  });
}

/** Slack's `text` escapes &, < and > (its link and mention syntax): a visitor's name cannot ping a channel or hide a link. */
export function slackEscape(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The Slack post of an alert: Slack's own `text` format, the line, the project and a link to the lead. */
export function slackBodyOf(message: AlertMessage, publicUrl: string): string {
  return JSON.stringify({ text: `${slackEscape(message.title)} (${slackEscape(message.body)})\n<${publicUrl}${message.path}|Open the lead>` });
}

/** What one attempt came to: delivered, try again later, give up, or the device's subscription is gone. */
type Outcome = { kind: "sent" | "retry" | "failed" | "expired"; status: number | null; reason?: string };

/**
 * Delivers queued pushes and Slack posts (decision 56): claims what is due, sends each, and records the outcome.
 * A 2xx is delivered. A push service's 404 or 410 means the device's subscription expired: the subscription is
 * removed (its queued pushes with it). Other 4xx answers (but 429) and a target refused by the rules are given up
 * at once; anything else is retried with the mail outbox's backoff, ten attempts.
 */
export class AlertWorker extends RecurringPass<number> {
  readonly #claim: Claim;
  #wakes = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: AlertDeliverySettings,
    private readonly logger: Logger,
    private readonly options: { clock?: () => Date; resolve?: Resolver; owner?: string } = {},
  ) {
    super();
    this.#claim = { owner: options.owner ?? newWorkerId("alerts"), leaseMs: LEASE_MS };
  }

  #now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  protected passFailed(error: unknown): void {
    this.logger.error({ err: error }, "alert worker pass failed");
  }

  override wake(): void {
    this.#wakes += 1;
    super.wake();
  }

  protected async pass(stopping: AbortSignal): Promise<number> {
    setMaxListeners(ALERT_BATCH + 4, stopping);
    let delivered = 0;
    for (;;) {
      if (stopping.aborted) return delivered;
      const wakes = this.#wakes;
      const batch = await claimDueAlerts(this.db, ALERT_BATCH, this.#claim, this.#now());
      const sent = await Promise.all(batch.map((alert) => this.#deliver(alert, stopping).catch((error: unknown) => (this.passFailed(error), false))));
      delivered += sent.filter(Boolean).length;
      // A visitor may have queued more while this batch was out.
      if (batch.length === 0 && this.#wakes === wakes) return delivered;
    }
  }

  async #deliver(claimed: ClaimedAlert, stopping: AbortSignal): Promise<boolean> {
    const attempts = await startAttempt(this.db, "alert_deliveries", claimed.id, this.#claim, this.#now());
    if (attempts === null) return false;
    const message = JSON.parse(claimed.payload) as AlertMessage;
    let outcome: Outcome;
    try {
      outcome = claimed.channel === "push" ? await this.#push(claimed, message, stopping) : await this.#postToSlack(claimed, message, stopping);
    } catch (error) {
      outcome = { kind: error instanceof WebhookTargetRefused ? "failed" : "retry", status: null, reason: error instanceof Error ? error.message : String(error) };
    }
    const held = this.db
      .updateTable("alert_deliveries")
      .where("id", "=", claimed.id)
      .where("status", "=", "pending")
      .where("claimed_by", "=", this.#claim.owner);
    const log = { deliveryId: claimed.id, channel: claimed.channel, status: outcome.status };
    if (outcome.kind === "sent") {
      await held.set({ status: "sent", delivered_at: this.#now().toISOString(), locked_until: null, attempt_started_at: null, last_error: null, response_status: outcome.status }).execute();
      this.logger.info(log, "founder alert delivered");
      return true;
    }
    if (outcome.kind === "expired") {
      // The push service no longer knows this device: its subscription goes, and this delivery with it.
      await this.db.deleteFrom("push_subscriptions").where("id", "=", claimed.push_subscription_id).execute();
      this.logger.info(log, "push subscription expired; removed");
      return false;
    }
    const reason = (outcome.reason ?? `answered ${outcome.status}`).slice(0, 500);
    if (outcome.kind === "failed" || attempts >= ALERT_MAX_ATTEMPTS) {
      await held.set({ status: "failed", locked_until: null, attempt_started_at: null, last_error: reason, response_status: outcome.status }).execute();
      this.logger.warn({ ...log, reason, attempts }, "founder alert given up");
    } else {
      const retryAt = new Date(this.#now().getTime() + retryDelayMs(attempts));
      await held
        .set({ next_attempt_at: retryAt.toISOString(), locked_until: null, claimed_by: null, attempt_started_at: null, last_error: reason, response_status: outcome.status })
        .execute();
      this.logger.warn({ ...log, reason, retryAt }, "founder alert failed; will retry");
    }
    return false;
  }

  /** Encrypts the push for the device (aes128gcm, RFC 8291), signs it with VAPID, and POSTs it to its push service. */
  async #push(claimed: ClaimedAlert, message: AlertMessage, stopping: AbortSignal): Promise<Outcome> {
    const { endpoint, p256dh, auth } = claimed;
    if (!endpoint || !p256dh || !auth) return { kind: "failed", status: null, reason: "the device's subscription is gone" };
    const { vapid, subject, services } = this.settings.push;
    // The allow-list may have shrunk since the device subscribed.
    if (!isAllowedPushEndpoint(endpoint, services)) return { kind: "failed", status: null, reason: "the push service is no longer allowed" };
    const payload = JSON.stringify({ title: message.title, body: message.body, url: `${this.settings.publicUrl}${message.path}`, tag: message.tag });
    const request = webPush.generateRequestDetails({ endpoint, keys: { p256dh, auth } }, payload, {
      vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: PUSH_TTL_SECONDS,
      urgency: "high",
      contentEncoding: "aes128gcm",
    });
    const response = await fetch(request.endpoint, {
      method: "POST",
      headers: request.headers,
      body: new Uint8Array(request.body),
      redirect: "manual",
      signal: AbortSignal.any([AbortSignal.timeout(TIMEOUT_MS), stopping]),
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { kind: "sent", status: response.status };
    if (response.status === 404 || response.status === 410) return { kind: "expired", status: response.status };
    return { kind: response.status >= 400 && response.status < 500 && response.status !== 429 ? "failed" : "retry", status: response.status };
  }

  async #postToSlack(claimed: ClaimedAlert, message: AlertMessage, stopping: AbortSignal): Promise<Outcome> {
    if (!claimed.slack_url) return { kind: "failed", status: null, reason: "no Slack URL" };
    const response = await postWebhook(claimed.slack_url, slackBodyOf(message, this.settings.publicUrl), { "User-Agent": "PitchQR-Alerts/1" }, this.settings.webhooks, this.options.resolve, stopping);
    if (response.status >= 200 && response.status < 300) return { kind: "sent", status: response.status };
    return { kind: response.status >= 400 && response.status < 500 && response.status !== 429 ? "failed" : "retry", status: response.status };
  }
}
