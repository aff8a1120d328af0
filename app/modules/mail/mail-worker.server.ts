import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import { claimDueMail, markFailed, markForRetry, markSent } from "./outbox.server";
import { RecurringPass } from "./recurring-pass.server";
import { isPermanentFailure, type MailTransport } from "./transport.server";

export const MAX_ATTEMPTS = 10;
const LOCK_MS = 2 * 60_000;

/** 30 s, 1 min, 2 min, … capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * Delivers queued mail: claims due messages, sends each, and records the outcome. A temporary failure (server
 * down, 4xx) is retried with backoff; a permanent one (5xx) or the tenth attempt gives up with the reason logged.
 */
export class MailWorker {
  readonly #passes: RecurringPass<number>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly transport: MailTransport,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.#passes = new RecurringPass(
      () => this.#deliverDue(),
      (error) => this.logger.error({ err: error }, "mail worker pass failed"),
    );
  }

  /** One pass over what is due; resolves with how many messages were sent. */
  runOnce(): Promise<number> {
    return this.#passes.runOnce();
  }

  start(intervalMs = 5_000): void {
    this.#passes.start(intervalMs);
  }

  /** Starts a pass now, without waiting for it: called after a request queued mail, so it leaves within a moment. */
  wake(): void {
    this.#passes.wake();
  }

  async stop(): Promise<void> {
    await this.#passes.stop();
    this.transport.close();
  }

  async #deliverDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const batch = await claimDueMail(this.db, 20, LOCK_MS, this.clock());
      if (batch.length === 0) return sent;
      for (const mail of batch) {
        try {
          const { delivered } = await this.transport.send(mail);
          await markSent(this.db, mail.id, this.clock());
          this.logger.info({ mailId: mail.id, kind: mail.kind, delivered }, "mail delivered");
          sent += 1;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          if (isPermanentFailure(error) || mail.attempts >= MAX_ATTEMPTS) {
            await markFailed(this.db, mail.id, reason);
            this.logger.error({ mailId: mail.id, kind: mail.kind, reason, attempts: mail.attempts }, "mail given up");
          } else {
            const retryAt = new Date(this.clock().getTime() + retryDelayMs(mail.attempts));
            await markForRetry(this.db, mail.id, reason, retryAt);
            this.logger.warn({ mailId: mail.id, kind: mail.kind, reason, retryAt }, "mail delivery failed; will retry");
          }
        }
      }
    }
  }
}
