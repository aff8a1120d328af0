import os from "node:os";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { startAttempt, type Claim } from "~/modules/jobs/delivery-claims.server";
import { RecurringPass } from "~/modules/jobs/recurring-pass.server";
import type { Logger } from "~/modules/logging/logger.server";
import { claimDueMail, markFailed, markForRetry, markHandedOver, markSent, markSentUnconfirmed, type QueuedMail } from "./outbox.server";
import { isAuthFailure, isPermanentFailure, isServerRefusal, type MailTransport } from "./transport.server";

export const MAX_ATTEMPTS = 10;
const BATCH_SIZE = 20;
/**
 * How long a claim lasts from its last renewal (each message's send renews it): twice the longest send plus 10 s,
 * so it outlasts a send with the length of another to spare for database latency and clock differences between
 * instances (decision 49). With the default SMTP timeouts (55 s in all) that is 2 min; it is also how long mail a
 * dead instance had claimed waits before another instance sends it.
 */
export function leaseFor(maxSendMs: number): number {
  return 2 * maxSendMs + 10_000;
}
export const DEFAULT_RETRY_BASE_MS = 30_000;

/** 30 s, 1 min, 2 min, … capped at one hour (from `baseMs`, 30 s unless a worker is configured otherwise). */
export function retryDelayMs(attempts: number, baseMs = DEFAULT_RETRY_BASE_MS): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/** An id for one worker in one process: what `claimed_by` records, so a claim's holder is known across instances. */
export function newWorkerId(kind: string): string {
  return `${kind}:${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

/** The SMTP server refusing our login, for the operator (a founder screen's mail banner, decision 42). */
export type MailAuthFailure = { since: Date; lastAt: Date; reason: string; retryAt: Date };

type Delivery = "sent" | "not-sent" | "auth-failed";

export type MailWorkerOptions = {
  clock?: () => Date;
  /** This worker's id in `claimed_by`; a new one per worker unless given. */
  owner?: string;
  /** How long a claim lasts from its last renewal (`leaseFor` the transport's `maxSendMs` unless given); longer than `maxSendMs` (checked). */
  leaseMs?: number;
  /** First retry delay after a temporary failure, doubled per attempt up to an hour. */
  retryBaseMs?: number;
};

/**
 * Delivers queued mail: claims due messages, sends each, and records the outcome. A temporary failure (server
 * down, 4xx) is retried with backoff; a permanent one (5xx) or the tenth attempt gives up with the reason logged.
 * A refused login (EAUTH, 535) is the operator's to fix, not the message's: it is logged as an error, kept in
 * `lastAuthFailure()` for the operator's banner, and the whole worker holds off with backoff (one login attempt per
 * wait, so a wrong password does not get the account locked); no message is given up for it.
 *
 * Exactly once across instances (decision 24): the claim names this worker and lasts `leaseMs` from each renewal.
 * Before each send the worker renews its claim on that message, and skips it when the claim has passed to another
 * worker; the send is abandoned after the transport's `maxSendMs`, shorter than the lease, so no other worker can
 * claim a message while its send may still be in flight; only the holder can mark it sent.
 *
 * Never twice across crashes (decision "mail-end-of-data"): the SMTP data is ended only after the message is marked
 * handed over. A send that died before the mark never reached the server's end of data, so it is sent again (same
 * Message-ID); one that died after it is counted as sent and never sent again.
 */
export class MailWorker extends RecurringPass<number> {
  readonly #claim: Claim;
  readonly #retryBaseMs: number;
  readonly #clock: () => Date;
  #authFailure: (MailAuthFailure & { consecutive: number }) | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly transport: MailTransport,
    private readonly logger: Logger,
    options: MailWorkerOptions = {},
  ) {
    super();
    this.#claim = { owner: options.owner ?? newWorkerId("mail"), leaseMs: options.leaseMs ?? leaseFor(transport.maxSendMs) };
    if (this.#claim.leaseMs <= transport.maxSendMs) {
      throw new Error(`the mail claim (${this.#claim.leaseMs} ms) must outlast one send (${transport.maxSendMs} ms, the sum of the SMTP timeouts)`);
    }
    this.#retryBaseMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
    this.#clock = options.clock ?? (() => new Date());
  }

  get owner(): string {
    return this.#claim.owner;
  }

  /** While the SMTP server refuses our login: since when, the last refusal and when the worker tries again; else null. */
  lastAuthFailure(): MailAuthFailure | null {
    if (!this.#authFailure) return null;
    const { since, lastAt, reason, retryAt } = this.#authFailure;
    return { since, lastAt, reason, retryAt };
  }

  override async stop(): Promise<void> {
    await super.stop();
    this.transport.close();
  }

  protected passFailed(error: unknown): void {
    this.logger.error({ err: error }, "mail worker pass failed");
  }

  /**
   * Delivers due mail until none is left, or until the app stops: a shutdown does not wait for a large outbox (a
   * digest's), it ends after the message in flight; the rest of the claimed batch is taken over when the claim expires.
   */
  protected async pass(stopping: AbortSignal): Promise<number> {
    let sent = 0;
    // Held off after a refused login; the rest of a batch then claimed is taken again when its claim runs out.
    if (this.#authFailure && this.#clock() < this.#authFailure.retryAt) return sent;
    for (;;) {
      if (stopping.aborted) return sent;
      const batch = await claimDueMail(this.db, BATCH_SIZE, this.#claim, this.#clock());
      if (batch.length === 0) return sent;
      for (const mail of batch) {
        if (stopping.aborted) return sent;
        const delivery = await this.#deliver(mail);
        if (delivery === "sent") sent += 1;
        if (delivery === "auth-failed") return sent;
      }
    }
  }

  async #deliver(mail: QueuedMail): Promise<Delivery> {
    const { owner } = this.#claim;
    if (mail.handedOverAt) return this.#settleHandedOver(mail);
    const attempt = await startAttempt(this.db, "mail_outbox", mail.id, this.#claim, this.#clock());
    if (attempt === null) {
      this.logger.info({ mailId: mail.id, kind: mail.kind }, "mail claimed by another worker meanwhile; left to it");
      return "not-sent";
    }
    if (mail.outcomeUnknownSince) {
      this.logger.warn({ mailId: mail.id, kind: mail.kind, since: mail.outcomeUnknownSince }, "mail sent again: an earlier send's outcome was never recorded (same Message-ID)");
    }
    let handedOver = false;
    try {
      const { delivered } = await this.transport.send(mail, async () => {
        if (!(await markHandedOver(this.db, mail.id, owner, this.#clock()))) throw new Error("the claim on this mail passed to another worker before its data ended");
        handedOver = true;
      });
      if (await markSent(this.db, mail.id, owner, this.#clock())) {
        this.logger.info({ mailId: mail.id, kind: mail.kind, delivered }, "mail delivered");
      } else {
        this.logger.error({ mailId: mail.id, kind: mail.kind, delivered }, "mail delivered after its claim passed to another worker");
      }
      if (this.#authFailure) {
        this.logger.info({ since: this.#authFailure.since }, "SMTP authentication works again; held mail is being delivered");
        this.#authFailure = null;
      }
      return "sent";
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (handedOver && !isServerRefusal(error)) {
        // The end of data went out and no answer came (a timeout, a dropped connection): the server may have the
        // message, so sending it again could deliver it twice (decision "mail-end-of-data").
        if (await markSentUnconfirmed(this.db, mail.id, owner, this.#clock())) {
          this.logger.warn({ mailId: mail.id, kind: mail.kind, reason }, "mail counted as sent, not sent again: no answer came after the end of its data");
        }
        return "not-sent";
      }
      if (isAuthFailure(error)) {
        await this.#holdOffAfterAuthFailure(mail, reason);
        return "auth-failed";
      }
      if (isPermanentFailure(error) || attempt >= MAX_ATTEMPTS) {
        await markFailed(this.db, mail.id, owner, reason);
        this.logger.error({ mailId: mail.id, kind: mail.kind, reason, attempts: attempt }, "mail given up");
      } else {
        const retryAt = new Date(this.#clock().getTime() + retryDelayMs(attempt, this.#retryBaseMs));
        await markForRetry(this.db, mail.id, owner, reason, retryAt);
        this.logger.warn({ mailId: mail.id, kind: mail.kind, reason, retryAt }, "mail delivery failed; will retry");
      }
      return "not-sent";
    }
  }

  /** A refused login: the message waits (never given up for it), and so does the worker, with backoff. */
  async #holdOffAfterAuthFailure(mail: QueuedMail, reason: string): Promise<void> {
    const now = this.#clock();
    const consecutive = (this.#authFailure?.consecutive ?? 0) + 1;
    const retryAt = new Date(now.getTime() + retryDelayMs(consecutive, this.#retryBaseMs));
    this.#authFailure = { since: this.#authFailure?.since ?? now, lastAt: now, reason, retryAt, consecutive };
    await markForRetry(this.db, mail.id, this.#claim.owner, reason, retryAt);
    this.logger.error(
      { mailId: mail.id, kind: mail.kind, reason, retryAt, since: this.#authFailure.since },
      "SMTP authentication failed: check the user name and password in SMTP_URL; mail is kept and retried",
    );
  }

  /**
   * An earlier holder gave the server the whole message and was ending its data when it stopped (a crash, or a
   * freeze past its lease): the server has the message unless it refused it after the end of data, which nobody
   * heard. Sending it again could deliver it twice, so it counts as sent; the rare loss is logged.
   */
  async #settleHandedOver(mail: QueuedMail): Promise<Delivery> {
    if (await markSentUnconfirmed(this.db, mail.id, this.#claim.owner, this.#clock())) {
      this.logger.warn(
        { mailId: mail.id, kind: mail.kind, handedOverAt: mail.handedOverAt },
        "mail counted as sent, not sent again: it was handed to the SMTP server before its sender stopped, and the server's answer was never recorded",
      );
    }
    return "not-sent";
  }
}
