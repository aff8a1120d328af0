import pino from "pino";
import { SMTPServer } from "smtp-server";
import { describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { MailWorker } from "~/modules/mail/mail-worker.server";
import { startAttempt, type Claim } from "~/modules/jobs/delivery-claims.server";
import { claimDueMail, enqueueMail, markHandedOver } from "~/modules/mail/outbox.server";
import { createSmtpTransport } from "~/modules/mail/transport.server";
import { freePort } from "../support/app-server";
import { describeEachDialect } from "../support/databases";
import { startSmtpServer } from "../support/smtp";

/**
 * A kill -9 in the middle of a send, simulated honestly: a worker's outbox steps and a real SMTP send, then the
 * worker's state is dropped where the process would have died (its send abandoned, its connection closed, nothing
 * settled), and a fresh worker takes over the database as a restarted process would.
 */
const logger = pino({ level: "silent" });
const FROM = "PitchQR <no-reply@pitchqr.test>";
/** Times long past, so only the rows a test queues at them are due, whatever else its database holds. */
const T0 = new Date("2020-04-07T09:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
/** Short SMTP timeouts: a send held open is cut (its connection closed) by the idle timeout, or after their sum. */
const TIMEOUTS = { connectionTimeoutMs: 3_000, greetingTimeoutMs: 3_000, socketTimeoutMs: 2_000 };
const LEASE_MS = 10_000;
/** Where the dead process stops: a promise that never settles. */
const never = () => new Promise<void>(() => {});

async function outboxRow(db: Kysely<Database>, id: string) {
  return db
    .selectFrom("mail_outbox")
    .select(["status", "attempts", "handed_over_at", "attempt_started_at", "last_error"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

/** The dead worker's first steps on a message: claim it and start the attempt, as `MailWorker` does. */
async function claimAndStart(db: Kysely<Database>, id: string, claim: Claim) {
  const [mail] = await claimDueMail(db, 10, claim, T0);
  expect(mail?.id).toBe(id);
  expect(await startAttempt(db, "mail_outbox", id, claim, T0)).toBe(1);
  return mail!;
}

describe("the end of a message's data", () => {
  it("waits for the hand-over, which comes only once the server reads the message, on fresh and reused connections, for small and large messages", async () => {
    const events: string[] = [];
    const port = await freePort();
    // Recipients are answered slowly: the message is composed (and buffered on our side) long before DATA.
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      disableReverseLookup: true,
      onRcptTo(_address, _session, callback) {
        events.push("rcpt");
        setTimeout(() => callback(), 300);
      },
      onData(stream, _session, callback) {
        events.push("data");
        stream.resume();
        stream.on("end", () => {
          events.push("end of data");
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    const transport = createSmtpTransport(`smtp://127.0.0.1:${port}`, FROM);
    try {
      for (const length of [10, 80_000, 10]) {
        const mail = { id: crypto.randomUUID(), kind: "notify", recipient: "order@example.com", subject: "Order", text_body: "x".repeat(length), html_body: null, mail_headers: {}, reply_to: null, calendar_ics: null, attachments: null, attempts: 0, outcomeUnknownSince: null, handedOverAt: null };
        await transport.send(mail, async () => {
          events.push("hand-over");
          await new Promise((resolve) => setTimeout(resolve, 100));
          events.push("handed over");
        });
      }
      expect(events).toEqual(Array.from({ length: 3 }, () => ["rcpt", "data", "hand-over", "handed over", "end of data"]).flat());
    } finally {
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describeEachDialect("mail across a crash in the middle of a send", (getDb) => {
  it("leaves nothing at the server when the sender dies before its data ends, and sends it again after the lease with the same Message-ID", async () => {
    const { db } = getDb();
    const id = await enqueueMail(db, { kind: "notify", to: "cut@example.com", subject: "Cut short", text: "x" }, T0);
    const smtp = await startSmtpServer();
    const dying = createSmtpTransport(smtp.url, FROM, TIMEOUTS);
    const restarted = createSmtpTransport(smtp.url, FROM, TIMEOUTS);
    try {
      const mail = await claimAndStart(db, id, { owner: "worker-dead", leaseMs: LEASE_MS });
      // The whole message is with the server, which waits for the end of data; the process dies there.
      await expect(dying.send(mail, never)).rejects.toThrow(/timeout/i);
      expect(smtp.data.started).toBe(1);
      expect(smtp.received).toEqual([]);
      expect(await outboxRow(db, id)).toMatchObject({ status: "pending", attempts: 1, handed_over_at: null });

      const worker = new MailWorker(db, restarted, logger, { clock: () => at(LEASE_MS - 1), leaseMs: LEASE_MS });
      expect(await worker.runOnce()).toBe(0);
      const later = new MailWorker(db, restarted, logger, { clock: () => at(LEASE_MS + 1), leaseMs: LEASE_MS });
      expect(await later.runOnce()).toBe(1);
      expect(smtp.received.map((received) => received.messageId)).toEqual([`<${id}@pitchqr.outbox>`]);
      expect(await outboxRow(db, id)).toMatchObject({ status: "sent", attempts: 2, handed_over_at: null, attempt_started_at: null });
    } finally {
      dying.close();
      restarted.close();
      await smtp.close();
      await db.deleteFrom("mail_outbox").where("id", "=", id).execute();
    }
  });

  it("never sends again a message whose sender died after handing it over, and records that the answer was never heard", async () => {
    const { db } = getDb();
    const id = await enqueueMail(db, { kind: "notify", to: "once@example.com", subject: "Once", text: "x" }, T0);
    const smtp = await startSmtpServer();
    const dying = createSmtpTransport(smtp.url, FROM, TIMEOUTS);
    const restarted = createSmtpTransport(smtp.url, FROM, TIMEOUTS);
    const claim = { owner: "worker-dead", leaseMs: LEASE_MS };
    try {
      const mail = await claimAndStart(db, id, claim);
      // The data ends and the server accepts the message; the process dies before it records "sent".
      await dying.send(mail, async () => {
        expect(await markHandedOver(db, id, claim.owner, at(10))).toBe(true);
      });
      expect(smtp.received.map((received) => received.messageId)).toEqual([`<${id}@pitchqr.outbox>`]);
      expect(await outboxRow(db, id)).toMatchObject({ status: "pending", handed_over_at: expect.anything() });

      const worker = new MailWorker(db, restarted, logger, { clock: () => at(LEASE_MS + 1), leaseMs: LEASE_MS });
      expect(await worker.runOnce()).toBe(0);
      expect(smtp.data.started).toBe(1);
      expect(smtp.received).toHaveLength(1);
      expect(await outboxRow(db, id)).toMatchObject({
        status: "sent",
        attempts: 1,
        handed_over_at: expect.anything(),
        last_error: "handed over; the server's answer was never recorded",
      });
      expect(await worker.runOnce()).toBe(0);
      expect(smtp.received).toHaveLength(1);
    } finally {
      dying.close();
      restarted.close();
      await smtp.close();
      await db.deleteFrom("mail_outbox").where("id", "=", id).execute();
    }
  });

  it("does not end the data of a worker that lost its claim: the server discards the message and the holder delivers it once", async () => {
    const { db } = getDb();
    const id = await enqueueMail(db, { kind: "notify", to: "frozen@example.com", subject: "Frozen", text: "x" }, T0);
    const smtp = await startSmtpServer();
    const frozen = createSmtpTransport(smtp.url, FROM, TIMEOUTS);
    const holder = createSmtpTransport(smtp.url, FROM, TIMEOUTS);
    const stale = { owner: "worker-frozen", leaseMs: LEASE_MS };
    try {
      const mail = await claimAndStart(db, id, stale);
      // worker-frozen stalls past its lease and another worker claims the message before it can hand it over.
      const taken = await claimDueMail(db, 10, { owner: "worker-b", leaseMs: LEASE_MS }, at(LEASE_MS + 1));
      expect(taken.map((row) => row.id)).toEqual([id]);
      await expect(
        frozen.send(mail, async () => {
          if (!(await markHandedOver(db, id, stale.owner, at(LEASE_MS + 2)))) throw new Error("claim lost");
        }),
      ).rejects.toThrow(/claim lost/);
      expect(smtp.data.started).toBe(1);
      expect(smtp.received).toEqual([]);
      expect(await outboxRow(db, id)).toMatchObject({ status: "pending", handed_over_at: null });

      // worker-b's own claim lapses unused too; a running worker then delivers the message, once.
      const worker = new MailWorker(db, holder, logger, { clock: () => at(2 * LEASE_MS + 2), leaseMs: LEASE_MS });
      expect(await worker.runOnce()).toBe(1);
      expect(smtp.received.map((received) => received.messageId)).toEqual([`<${id}@pitchqr.outbox>`]);
    } finally {
      frozen.close();
      holder.close();
      await smtp.close();
      await db.deleteFrom("mail_outbox").where("id", "=", id).execute();
    }
  });

  it("counts as sent, and never sends again, a message whose end of data got no answer while its sender lived", async () => {
    const { db } = getDb();
    const id = await enqueueMail(db, { kind: "notify", to: "silent@example.com", subject: "Silent", text: "x" }, T0);
    const arrived: string[] = [];
    const port = await freePort();
    // The server keeps the message but answers its end of data only after the sender has stopped waiting.
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      disableReverseLookup: true,
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => {
          arrived.push(id);
          setTimeout(() => callback(), 2_500);
        });
      },
    });
    server.on("error", () => {});
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    const transport = createSmtpTransport(`smtp://127.0.0.1:${port}`, FROM, { connectionTimeoutMs: 3_000, greetingTimeoutMs: 3_000, socketTimeoutMs: 1_000 });
    try {
      const worker = new MailWorker(db, transport, logger, { clock: () => T0, leaseMs: LEASE_MS, retryBaseMs: 1_000 });
      expect(await worker.runOnce()).toBe(0);
      expect(arrived).toEqual([id]);
      expect(await outboxRow(db, id)).toMatchObject({ status: "sent", attempts: 1, handed_over_at: expect.anything(), last_error: "handed over; the server's answer was never recorded" });
      const later = new MailWorker(db, transport, logger, { clock: () => at(LEASE_MS + 60_000), leaseMs: LEASE_MS, retryBaseMs: 1_000 });
      expect(await later.runOnce()).toBe(0);
      expect(arrived).toEqual([id]);
    } finally {
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.deleteFrom("mail_outbox").where("id", "=", id).execute();
    }
  });

  it("clears the hand-over when the server refuses the message after its data, and retries it", async () => {
    const { db } = getDb();
    const id = await enqueueMail(db, { kind: "notify", to: "busy@example.com", subject: "Busy", text: "x" }, T0);
    let refusals = 1;
    const smtp = await startSmtpServer({ refuseWith: () => (refusals-- > 0 ? { code: 451, message: "try again later" } : null) });
    const transport = createSmtpTransport(smtp.url, FROM, TIMEOUTS);
    try {
      const first = new MailWorker(db, transport, logger, { clock: () => T0, leaseMs: LEASE_MS, retryBaseMs: 1_000 });
      expect(await first.runOnce()).toBe(0);
      expect(await outboxRow(db, id)).toMatchObject({ status: "pending", attempts: 1, handed_over_at: null, attempt_started_at: null });
      const retry = new MailWorker(db, transport, logger, { clock: () => at(1_001), leaseMs: LEASE_MS, retryBaseMs: 1_000 });
      expect(await retry.runOnce()).toBe(1);
      expect(smtp.received.map((received) => received.messageId)).toEqual([`<${id}@pitchqr.outbox>`]);
      expect(await outboxRow(db, id)).toMatchObject({ status: "sent", attempts: 2, handed_over_at: null });
    } finally {
      transport.close();
      await smtp.close();
      await db.deleteFrom("mail_outbox").where("id", "=", id).execute();
    }
  });
});
