import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import webPush from "web-push";
import type { AlertChannel, Database, Timestamp } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import { newWorkerId, retryDelayMs } from "~/modules/mail/mail-worker.server";
import { claimable, claimOldestPerDestination, startAttempt, type Claim } from "~/modules/jobs/delivery-claims.server";
import { DeliveryPass } from "~/modules/jobs/delivery-pass.server";
import { postWebhook } from "~/modules/webhooks/webhook-delivery.server";
import { WebhookTargetRefused, type Resolver, type WebhookTargetPolicy } from "~/modules/webhooks/webhook-target.server";
import type { AlertMessage } from "./founder-alerts.server";
import { isAllowedPushEndpoint, type PushService } from "./push-services";
import type { VapidKeys } from "./vapid-keys.server";

export const ALERT_MAX_ATTEMPTS = 10;
const LEASE_MS = 2 * 60_000;
/** One push or Slack post, from connecting to the end of the answer; well under the claim's lease. */
const TIMEOUT_MS = 10_000;
/**
 * Pushes and Slack posts one worker (one instance) has in flight at once, at most one per destination (a device's
 * push endpoint, a Slack URL) and ALERT_IN_FLIGHT_PER_HOST per host (a push service, hooks.slack.com): a hanging
 * destination costs one slot for at most TIMEOUT_MS per attempt, a hanging push service or Slack half of them.
 */
export const ALERT_IN_FLIGHT = 16;
const ALERT_IN_FLIGHT_PER_HOST = 8;
/** Due deliveries one claim looks at to find the oldest of each destination that is free here. */
const CLAIM_CANDIDATES = 50;
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
  /** Set when an earlier holder began an attempt and never recorded its outcome (it died, or lost its claim). */
  attempt_started_at: Timestamp | null;
  /** Set when an earlier holder had given Slack the whole post but its last byte and was sending that. */
  handed_over_at: Timestamp | null;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  destination: string;
};

/** Where a push or Slack post goes: the device's push endpoint, or the project's Slack URL. */
function destinationOf(row: { slack_url: string | null; endpoint: string | null; id: string }): string {
  return row.slack_url ?? row.endpoint ?? row.id;
}

/** The host of a destination, whose in-flight posts are capped together (a push service, hooks.slack.com). */
function hostOf(destination: string): string {
  return URL.canParse(destination) ? new URL(destination).host : destination;
}

/**
 * Claims up to `limit` due pushes and Slack posts for `claim.owner`, the oldest due of each destination (a device's
 * push endpoint, a Slack URL) not in `exclude` (those this worker is already sending to or holding off) and that
 * `skip` does not rule out (a host that has its share of the slots), so one claim never takes two deliveries of one
 * destination and a slow destination's queue never stands in front of another's. As the mail outbox and webhooks: FOR UPDATE SKIP LOCKED
 * on PostgreSQL, the single writer on SQLite; an unsettled claim expires and is taken again.
 */
export async function claimDueAlerts(
  db: Kysely<Database>,
  limit: number,
  claim: Claim,
  now = new Date(),
  exclude: ReadonlySet<string> = new Set(),
  skip: (destination: string) => boolean = () => false,
): Promise<ClaimedAlert[]> {
  return db.transaction().execute(async (trx) => {
    const endpoint = sql<string | null>`(select endpoint from push_subscriptions where push_subscriptions.id = alert_deliveries.push_subscription_id)`;
    let due = claimable(trx, "alert_deliveries", CLAIM_CANDIDATES, now).select([sql<string | null>`slack_url`.as("slack_url"), endpoint.as("endpoint")]);
    // Left out in the query, so a busy destination's long queue cannot fill the candidates and hide the others.
    if (exclude.size > 0) due = due.where(sql<string>`coalesce(slack_url, ${endpoint})`, "not in", [...exclude]);
    const ids = await claimOldestPerDestination(trx, "alert_deliveries", await due.execute(), destinationOf, { limit, claim, now, skip });
    if (ids.length === 0) return [];
    const rows = await trx
      .selectFrom("alert_deliveries")
      .leftJoin("push_subscriptions", "push_subscriptions.id", "alert_deliveries.push_subscription_id")
      .select([
        "alert_deliveries.id",
        "alert_deliveries.channel",
        "alert_deliveries.payload",
        "alert_deliveries.push_subscription_id",
        "alert_deliveries.slack_url",
        "alert_deliveries.attempt_started_at",
        "alert_deliveries.handed_over_at",
        "push_subscriptions.endpoint",
        "push_subscriptions.p256dh",
        "push_subscriptions.auth",
      ])
      .where("alert_deliveries.id", "in", ids)
      .execute();
    return rows.map((row) => ({ ...row, destination: destinationOf(row) }));
  });
}

/** Slack's `text` escapes &, < and > (its link and mention syntax): a visitor's name cannot ping a channel or hide a link. */
export function slackEscape(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The Slack post of an alert: Slack's own `text` format, the line, the project and a link to the lead (or the page it names). */
export function slackBodyOf(message: AlertMessage, publicUrl: string): string {
  return JSON.stringify({ text: `${slackEscape(message.title)} (${slackEscape(message.body)})\n<${publicUrl}${message.path}|${message.link ?? "Open the lead"}>` });
}

/**
 * A push's Web Push `Topic` (RFC 8030 section 5.4: up to 32 URL-safe base64 characters), one per delivery: a push
 * sent again replaces the first one while the push service still holds it for the device.
 */
export function pushTopicOf(deliveryId: string): string {
  return createHash("sha256").update(deliveryId).digest("base64url").slice(0, 32);
}

/** What one attempt came to: delivered, try again later, give up, or the device's subscription is gone. */
type Outcome = { kind: "sent" | "retry" | "failed" | "expired"; status: number | null; reason?: string };

/**
 * Delivers queued pushes and Slack posts (decision 56): claims what is due, sends each, and records the outcome.
 * A 2xx is delivered. A push service's 404 or 410 means the device's subscription expired: the subscription is
 * removed (its queued pushes with it). Other 4xx answers (but 429) and a target refused by the rules are given up
 * at once; anything else is retried with the mail outbox's backoff, ten attempts.
 *
 * Destinations never wait on each other (decision 81): up to ALERT_IN_FLIGHT sends run at once, at most one per
 * destination, and after a failed attempt its other deliveries wait for that retry. A push sent again carries the
 * same Topic; a Slack post Slack may have read whole (handed over) is never posted again.
 */
export class AlertWorker extends DeliveryPass<ClaimedAlert> {
  readonly #claim: Claim;
  /** Destinations whose last attempt here failed, until when their deliveries are left alone. */
  readonly #holdingOff = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: AlertDeliverySettings,
    private readonly logger: Logger,
    private readonly options: { clock?: () => Date; resolve?: Resolver; owner?: string; maxInFlight?: number } = {},
  ) {
    super(options.maxInFlight ?? ALERT_IN_FLIGHT);
    this.#claim = { owner: options.owner ?? newWorkerId("alerts"), leaseMs: LEASE_MS };
  }

  #now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  protected passFailed(error: unknown): void {
    this.logger.error({ err: error }, "alert worker pass failed");
  }

  /** What a claim leaves out: destinations busy or held off here, and those of a host that has its share of slots. */
  #leftOut(busy: ReadonlySet<string>): { exclude: Set<string>; skip: (destination: string) => boolean } {
    const now = this.#now().getTime();
    for (const [destination, until] of this.#holdingOff) if (until <= now) this.#holdingOff.delete(destination);
    const perHost = new Map<string, number>();
    for (const destination of busy) perHost.set(hostOf(destination), (perHost.get(hostOf(destination)) ?? 0) + 1);
    const exclude = new Set([...busy, ...this.#holdingOff.keys()]);
    const skip = (destination: string) => {
      const host = hostOf(destination);
      const taken = perHost.get(host) ?? 0;
      if (taken >= ALERT_IN_FLIGHT_PER_HOST) return true;
      perHost.set(host, taken + 1);
      return false;
    };
    return { exclude, skip };
  }

  protected claimDue(room: number, busy: ReadonlySet<string>): Promise<ClaimedAlert[]> {
    const { exclude, skip } = this.#leftOut(busy);
    return claimDueAlerts(this.db, room, this.#claim, this.#now(), exclude, skip);
  }

  protected destinationOf(alert: ClaimedAlert): string {
    return alert.destination;
  }

  protected deliver(alert: ClaimedAlert, stopping: AbortSignal): Promise<boolean> {
    return this.#deliver(alert, stopping);
  }

  /** Settles a delivery this worker still holds; a claim that passed to another worker is left to it. */
  #settleHeld(id: string) {
    return this.db.updateTable("alert_deliveries").where("id", "=", id).where("status", "=", "pending").where("claimed_by", "=", this.#claim.owner);
  }

  /**
   * Counts as sent a Slack post whose whole body Slack may have read while its answer was never recorded (the holder
   * died, or no answer came): never posted again, `last_error` saying so.
   */
  async #settleUnconfirmed(claimed: ClaimedAlert, why: string): Promise<void> {
    await this.#settleHeld(claimed.id)
      .set({ status: "sent", delivered_at: this.#now().toISOString(), locked_until: null, attempt_started_at: null, last_error: `Slack's answer was never recorded (${why}); not posted again`.slice(0, 500) })
      .execute();
    this.logger.warn({ deliveryId: claimed.id, channel: claimed.channel, why }, "Slack post handed over but its answer never recorded; counted as sent");
  }

  async #deliver(claimed: ClaimedAlert, stopping: AbortSignal): Promise<boolean> {
    if (claimed.channel === "slack" && claimed.handed_over_at !== null) {
      await this.#settleUnconfirmed(claimed, "an earlier attempt was cut off after Slack had the whole post");
      return false;
    }
    if (claimed.attempt_started_at !== null) {
      // Pushes are sent again with the same Topic and tag, which replace the first one; a Slack post not handed over
      // never reached Slack whole.
      this.logger.info({ deliveryId: claimed.id, channel: claimed.channel, since: claimed.attempt_started_at }, "earlier attempt's outcome unknown; sending again");
    }
    const attempts = await startAttempt(this.db, "alert_deliveries", claimed.id, this.#claim, this.#now());
    if (attempts === null) return false;
    const message = JSON.parse(claimed.payload) as AlertMessage;
    let handedOver = false;
    let outcome: Outcome;
    try {
      outcome =
        claimed.channel === "push"
          ? await this.#push(claimed, message, stopping)
          : await this.#postToSlack(claimed, message, stopping, async () => {
              await this.#markHandedOver(claimed.id);
              handedOver = true;
            });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (handedOver) {
        await this.#settleUnconfirmed(claimed, reason);
        return false;
      }
      outcome = { kind: error instanceof WebhookTargetRefused ? "failed" : "retry", status: null, reason };
    }
    const log = { deliveryId: claimed.id, channel: claimed.channel, status: outcome.status };
    if (outcome.kind === "sent") {
      await this.#settleHeld(claimed.id)
        .set({ status: "sent", delivered_at: this.#now().toISOString(), locked_until: null, attempt_started_at: null, handed_over_at: null, last_error: null, response_status: outcome.status })
        .execute();
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
      await this.#settleHeld(claimed.id)
        .set({ status: "failed", locked_until: null, attempt_started_at: null, handed_over_at: null, last_error: reason, response_status: outcome.status })
        .execute();
      this.logger.warn({ ...log, reason, attempts }, "founder alert given up");
    } else {
      const retryAt = new Date(this.#now().getTime() + retryDelayMs(attempts));
      // Its destination's other deliveries wait for this retry too: a dead one costs a slot per backoff step only.
      this.#holdingOff.set(claimed.destination, retryAt.getTime());
      await this.#settleHeld(claimed.id)
        .set({
          next_attempt_at: retryAt.toISOString(),
          locked_until: null,
          claimed_by: null,
          attempt_started_at: null,
          handed_over_at: null,
          last_error: reason,
          response_status: outcome.status,
        })
        .execute();
      this.logger.warn({ ...log, reason, retryAt }, "founder alert failed; will retry");
    }
    return false;
  }

  /**
   * Records, as the holder of an attempt in progress, that Slack is about to get the last byte of the post: from
   * here the post may be in the channel, so it is never posted again. Throws when the claim passed to another
   * worker or the database is unreachable, which cuts the post off before Slack has it whole.
   */
  async #markHandedOver(id: string): Promise<void> {
    const result = await this.#settleHeld(id).where("attempt_started_at", "is not", null).set({ handed_over_at: this.#now().toISOString() }).executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new Error("the claim on this Slack post passed to another worker");
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
      topic: pushTopicOf(claimed.id),
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

  /** POSTs the Slack message, holding its last byte back until `handOver` has recorded that Slack gets it whole. */
  async #postToSlack(claimed: ClaimedAlert, message: AlertMessage, stopping: AbortSignal, handOver: () => Promise<void>): Promise<Outcome> {
    if (!claimed.slack_url) return { kind: "failed", status: null, reason: "no Slack URL" };
    const body = slackBodyOf(message, this.settings.publicUrl);
    const response = await postWebhook(claimed.slack_url, body, { "User-Agent": "PitchQR-Alerts/1" }, this.settings.webhooks, this.options.resolve, stopping, handOver);
    if (response.status >= 200 && response.status < 300) return { kind: "sent", status: response.status };
    return { kind: response.status >= 400 && response.status < 500 && response.status !== 429 ? "failed" : "retry", status: response.status };
  }
}
