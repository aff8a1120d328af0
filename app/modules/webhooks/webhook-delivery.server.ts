import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { sql, type Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import { newWorkerId, retryDelayMs } from "~/modules/mail/mail-worker.server";
import { claimable, claimOldestPerDestination, startAttempt, type Claim } from "~/modules/jobs/delivery-claims.server";
import { DeliveryPass } from "~/modules/jobs/delivery-pass.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { webhookPausedMail } from "~/modules/mail/founder-messages.server";
import { enqueueAccountMail } from "~/modules/mail/account-mail.server";
import { ownerEmailOf } from "~/modules/projects/projects.server";
import { founderTimeZone } from "~/modules/time/founder-zone";
import { signStandardWebhook, signWebhook, WEBHOOK_TEST_EVENT } from "./webhooks.server";
import { resolveWebhookTarget, WebhookTargetRefused, type Resolver, type WebhookTargetPolicy } from "./webhook-target.server";

export const WEBHOOK_MAX_ATTEMPTS = 10;
/** An endpoint whose deliveries keep failing this long, with none succeeding, is paused and its founder told. */
export const WEBHOOK_PAUSE_AFTER_MS = 3 * 24 * 60 * 60_000;
const LEASE_MS = 2 * 60_000;
/** The whole POST, from connecting to the end of the answer; well under the claim's lease. */
const TIMEOUT_MS = 10_000;
/**
 * POSTs one worker (one instance) has in flight at once, over all endpoints; each endpoint has at most one
 * (decision 43). A hanging endpoint costs one of these for at most TIMEOUT_MS per attempt.
 */
export const MAX_POSTS_IN_FLIGHT = 16;
/** Due deliveries one claim looks at to find the oldest of each endpoint that is not already busy here. */
const CLAIM_CANDIDATES = 50;

export type WebhookResponse = { status: number; location: string | null };

/**
 * POSTs a body to a checked target, connecting to the address `resolveWebhookTarget` chose (the socket's lookup is
 * pinned to it; TLS still verifies the certificate for the host name). Redirects are never followed: a 3xx is an
 * answer like any other non-2xx, so a redirect cannot lead the request to an address that was not checked.
 *
 * With `handOver`, the body's last byte is held back: once the rest is on the socket, `handOver` runs, and the byte
 * follows when it resolves. A receiver acts only on a request it read whole (its Content-Length), so one cut off
 * before that byte is discarded. When `handOver` rejects, the request is destroyed without it.
 */
export async function postWebhook(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  policy: WebhookTargetPolicy,
  resolve?: Resolver,
  stopping?: AbortSignal,
  handOver?: () => Promise<void>,
): Promise<WebhookResponse> {
  const target = await resolveWebhookTarget(rawUrl, policy, resolve);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === "https:" ? https : http;
  let deadline: NodeJS.Timeout | undefined;
  let stopListener: (() => void) | undefined;
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
    stopListener = () => request.destroy(new Error("the app is stopping"));
    if (stopping?.aborted) stopListener();
    else stopping?.addEventListener("abort", stopListener, { once: true });
    request.on("error", reject);
    if (!handOver) return void request.end(body);
    const bytes = Buffer.from(body);
    // The write's callback runs once the connection is up and the rest of the request is on its socket.
    request.write(bytes.subarray(0, -1), (error) => {
      if (error) return;
      handOver().then(
        () => request.end(bytes.subarray(-1)),
        (failure: unknown) => request.destroy(failure instanceof Error ? failure : new Error(String(failure))),
      );
    });
  }).finally(() => {
    clearTimeout(deadline);
    // A pass posts many times on one stop signal: each request stops listening once it is over.
    if (stopListener) stopping?.removeEventListener("abort", stopListener);
  });
}

type ClaimedDelivery = { id: string; endpoint_id: string; event_type: string; payload: string; attempts: number; url: string; secret: string };

/**
 * Claims up to `limit` due deliveries for `claim.owner`, the oldest due of each endpoint not in `skipEndpoints` (those
 * this worker is already posting to, or holding off), so one claim never takes two deliveries of one endpoint and a
 * busy endpoint's queue never stands in front of another's. As the mail outbox: PostgreSQL picks rows with FOR UPDATE
 * SKIP LOCKED, so two workers never claim the same delivery at once; SQLite has a single writer. A claim that is
 * never settled (the process died) expires and the delivery is tried again; each POST first renews the claim
 * (`startAttempt`), and only the holder settles it.
 */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  limit: number,
  claim: Claim,
  now = new Date(),
  skipEndpoints: ReadonlySet<string> = new Set(),
): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    let due = claimable(trx, "webhook_deliveries", CLAIM_CANDIDATES, now)
      .select(sql<string>`endpoint_id`.as("endpoint_id"))
      // A paused endpoint's deliveries wait for the founder to resume it.
      .where(sql<boolean>`endpoint_id not in (select id from webhook_endpoints where paused_at is not null)`);
    if (skipEndpoints.size > 0) due = due.where(sql.ref("endpoint_id"), "not in", [...skipEndpoints]);
    const ids = await claimOldestPerDestination(trx, "webhook_deliveries", await due.execute(), (row) => row.endpoint_id, { limit, claim, now });
    if (ids.length === 0) return [];
    const rows = await trx
      .selectFrom("webhook_deliveries")
      .innerJoin("webhook_endpoints", "webhook_endpoints.id", "webhook_deliveries.endpoint_id")
      .select([
        "webhook_deliveries.id",
        "webhook_deliveries.endpoint_id",
        "webhook_deliveries.event_type",
        "webhook_deliveries.payload",
        "webhook_deliveries.attempts",
        "webhook_endpoints.url",
        "webhook_endpoints.secret",
      ])
      .where("webhook_deliveries.id", "in", ids)
      .execute();
    return rows.map((row) => ({ ...row, attempts: Number(row.attempts) }));
  });
}

/**
 * Delivers queued webhooks: claims what is due, POSTs each signed, and records the outcome. A 2xx is delivered; any
 * other answer, a timeout or a refused connection is retried with the mail outbox's backoff (30 s doubling to an
 * hour, ten attempts); a URL that now points inside the network is given up at once.
 *
 * Endpoints never wait on each other (decision 43): up to MAX_POSTS_IN_FLIGHT POSTs run at once, at most one per
 * endpoint, and after a failed attempt this worker holds off that endpoint's other deliveries until the failed one's
 * retry is due, so a hanging or failing endpoint delays only its own queue.
 */
export class WebhookWorker extends DeliveryPass<ClaimedDelivery> {
  readonly #claim: Claim;
  /** Endpoints whose last attempt here failed, until when their deliveries are left alone. */
  readonly #holdingOff = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: WebhookTargetPolicy,
    private readonly logger: Logger,
    private readonly links: MailLinks,
    private readonly options: { clock?: () => Date; resolve?: Resolver; owner?: string; maxInFlight?: number; onMailQueued?: () => void } = {},
  ) {
    // Up to MAX_POSTS_IN_FLIGHT POSTs at once, one per endpoint.
    super(options.maxInFlight ?? MAX_POSTS_IN_FLIGHT);
    this.#claim = { owner: options.owner ?? newWorkerId("webhooks"), leaseMs: LEASE_MS };
  }

  #now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  protected passFailed(error: unknown): void {
    this.logger.error({ err: error }, "webhook worker pass failed");
  }

  #endpointsToSkip(busy: ReadonlySet<string>): Set<string> {
    const now = this.#now().getTime();
    const skip = new Set(busy);
    for (const [endpointId, until] of this.#holdingOff) {
      if (until <= now) this.#holdingOff.delete(endpointId);
      else skip.add(endpointId);
    }
    return skip;
  }

  protected claimDue(room: number, busy: ReadonlySet<string>): Promise<ClaimedDelivery[]> {
    return claimDueDeliveries(this.db, room, this.#claim, this.#now(), this.#endpointsToSkip(busy));
  }

  protected destinationOf(delivery: ClaimedDelivery): string {
    return delivery.endpoint_id;
  }

  protected deliver(delivery: ClaimedDelivery, stopping: AbortSignal): Promise<boolean> {
    return this.#deliver(delivery, stopping);
  }

  /** Settles a delivery this worker still holds; a claim that passed to another worker is left to it. */
  #settleHeld(id: string) {
    return this.db
      .updateTable("webhook_deliveries")
      .where("id", "=", id)
      .where("status", "=", "pending")
      .where("claimed_by", "=", this.#claim.owner);
  }

  async #deliver(claimed: ClaimedDelivery, stopping: AbortSignal): Promise<boolean> {
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
      // The same, as Standard Webhooks name and sign it, for receivers with a stock verifier.
      "webhook-id": delivery.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signStandardWebhook(delivery.secret, delivery.id, timestamp, delivery.payload),
    };
    let failure: string;
    let responseStatus: number | null = null;
    let permanent = false;
    try {
      const response = await postWebhook(delivery.url, delivery.payload, headers, this.policy, this.options.resolve, stopping);
      responseStatus = response.status;
      if (response.status >= 200 && response.status < 300) {
        await this.#settleHeld(delivery.id)
          .set({ status: "sent", delivered_at: this.#now().toISOString(), locked_until: null, attempt_started_at: null, last_error: null, response_status: response.status })
          .execute();
        await this.db.updateTable("webhook_endpoints").set({ failing_since: null }).where("id", "=", delivery.endpoint_id).where("failing_since", "is not", null).execute();
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
    // A test event is the founder's one question, answered on the spot: never retried behind their back.
    permanent ||= delivery.event_type === WEBHOOK_TEST_EVENT;
    const reason = failure.slice(0, 500);
    if (permanent || delivery.attempts >= WEBHOOK_MAX_ATTEMPTS) {
      await this.#settleHeld(delivery.id)
        .set({ status: "failed", locked_until: null, attempt_started_at: null, last_error: reason, response_status: responseStatus })
        .execute();
      this.logger.warn({ deliveryId: delivery.id, reason, attempts: delivery.attempts }, "webhook given up");
    } else {
      const retryAt = new Date(this.#now().getTime() + retryDelayMs(delivery.attempts));
      this.#holdingOff.set(delivery.endpoint_id, retryAt.getTime());
      await this.#settleHeld(delivery.id)
        .set({ next_attempt_at: retryAt.toISOString(), locked_until: null, claimed_by: null, attempt_started_at: null, last_error: reason, response_status: responseStatus })
        .execute();
      this.logger.warn({ deliveryId: delivery.id, reason, retryAt }, "webhook delivery failed; will retry");
    }
    await this.#recordFailure(delivery.endpoint_id, reason);
    return false;
  }

  /**
   * Starts the endpoint's failing clock at its first failure since a success; once it has run WEBHOOK_PAUSE_AFTER_MS,
   * pauses the endpoint and, in the same transaction, queues one e-mail telling its founder (the pause happens once,
   * so the mail does too, whichever instance's worker saw the failure).
   */
  async #recordFailure(endpointId: string, reason: string): Promise<void> {
    const now = this.#now();
    const paused = await this.db.transaction().execute(async (trx) => {
      await trx.updateTable("webhook_endpoints").set({ failing_since: now.toISOString() }).where("id", "=", endpointId).where("failing_since", "is", null).execute();
      const endpoint = await trx
        .updateTable("webhook_endpoints")
        .set({ paused_at: now.toISOString() })
        .where("id", "=", endpointId)
        .where("paused_at", "is", null)
        .where("failing_since", "<=", new Date(now.getTime() - WEBHOOK_PAUSE_AFTER_MS).toISOString())
        .returning(["project_id", "url", "failing_since"])
        .executeTakeFirst();
      if (!endpoint) return false;
      const project = await trx
        .selectFrom("projects")
        .innerJoin("users", "users.id", "projects.owner_id")
        .select(["projects.id", "projects.title", "projects.owner_id", "users.time_zone"])
        .where("projects.id", "=", endpoint.project_id)
        .executeTakeFirstOrThrow();
      const to = await ownerEmailOf(trx, project.owner_id);
      if (to) {
        const mail = webhookPausedMail({
          to,
          projectTitle: project.title,
          url: endpoint.url,
          failingSince: endpoint.failing_since!,
          timeZone: founderTimeZone(project.time_zone),
          lastError: reason,
          settingsUrl: this.links.leadSettingsUrl(project.id),
        });
        await enqueueAccountMail(trx, mail, now);
      }
      return true;
    });
    if (!paused) return;
    this.logger.warn({ endpointId, reason }, "webhook endpoint paused after failing for three days");
    this.options.onMailQueued?.();
  }
}
