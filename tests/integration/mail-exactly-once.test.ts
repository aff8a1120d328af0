import pino from "pino";
import { expect, it } from "vitest";
import { MailWorker } from "~/modules/mail/mail-worker.server";
import { startAttempt } from "~/modules/jobs/delivery-claims.server";
import { claimDueMail, enqueueMail, markForRetry, markSent } from "~/modules/mail/outbox.server";
import { createSmtpTransport } from "~/modules/mail/transport.server";
import { describeEachDialect } from "../support/databases";
import { startSmtpServer } from "../support/smtp";

const logger = pino({ level: "silent" });
const FROM = "PitchQR <no-reply@pitchqr.test>";
/** Times long past, so only the rows a test queues at them are due, whatever else its database holds. */
const T0 = new Date("2020-03-06T09:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

describeEachDialect("mail claims have one holder", (getDb) => {
  it("marks a message sent only for the worker that holds its claim", async () => {
    const { db } = getDb();
    const id = await enqueueMail(db, { kind: "notify", to: "holder@example.com", subject: "Held", text: "x" }, T0);
    const first = { owner: "worker-a", leaseMs: 1_000 };
    const second = { owner: "worker-b", leaseMs: 1_000 };
    try {
      expect((await claimDueMail(db, 10, first, T0)).map((mail) => mail.id)).toEqual([id]);
      expect(await startAttempt(db, "mail_outbox", id, first, T0)).toBe(1);
      // worker-a stalls past its lease; worker-b claims the message.
      expect((await claimDueMail(db, 10, second, at(1_500))).map((mail) => mail.id)).toEqual([id]);
      expect(await markSent(db, id, first.owner, at(1_600))).toBe(false);
      expect(await markForRetry(db, id, first.owner, "late failure", at(60_000))).toBe(false);
      expect(await startAttempt(db, "mail_outbox", id, first, at(1_600))).toBeNull();
      expect(await db.selectFrom("mail_outbox").select(["status", "claimed_by", "attempts"]).where("id", "=", id).executeTakeFirstOrThrow()).toEqual({
        status: "pending",
        claimed_by: "worker-b",
        attempts: 1,
      });
      expect(await startAttempt(db, "mail_outbox", id, second, at(1_700))).toBe(2);
      expect(await markSent(db, id, second.owner, at(1_800))).toBe(true);
      expect(await markSent(db, id, first.owner, at(1_900))).toBe(false);
      expect(await db.selectFrom("mail_outbox").select(["status", "claimed_by", "attempts", "attempt_started_at"]).where("id", "=", id).executeTakeFirstOrThrow()).toEqual({
        status: "sent",
        claimed_by: "worker-b",
        attempts: 2,
        attempt_started_at: null,
      });
    } finally {
      await db.deleteFrom("mail_outbox").where("id", "=", id).execute();
    }
  });

  it("lets another worker take a claimed message only after the lease, and one whose send started only after the lease from that start", async () => {
    const { db } = getDb();
    const waiting = await enqueueMail(db, { kind: "notify", to: "waiting@example.com", subject: "Waiting", text: "x" }, T0);
    const sending = await enqueueMail(db, { kind: "notify", to: "sending@example.com", subject: "Sending", text: "x" }, T0);
    const first = { owner: "worker-a", leaseMs: 1_000 };
    const second = { owner: "worker-b", leaseMs: 1_000 };
    try {
      expect(await claimDueMail(db, 10, first, T0)).toHaveLength(2);
      expect(await claimDueMail(db, 10, second, at(500))).toEqual([]);
      // worker-a begins sending one of them at 800 ms: its claim on that one now runs to 1,800 ms.
      expect(await startAttempt(db, "mail_outbox", sending, first, at(800))).toBe(1);
      const taken = await claimDueMail(db, 10, second, at(1_200));
      expect(taken.map((mail) => ({ id: mail.id, outcomeUnknownSince: mail.outcomeUnknownSince }))).toEqual([{ id: waiting, outcomeUnknownSince: null }]);
      expect(await startAttempt(db, "mail_outbox", waiting, first, at(1_300))).toBeNull();
      const resumed = await claimDueMail(db, 10, second, at(1_900));
      expect(resumed.map((mail) => ({ id: mail.id, outcomeUnknownSince: mail.outcomeUnknownSince }))).toEqual([{ id: sending, outcomeUnknownSince: at(800).toISOString() }]);
    } finally {
      await db.deleteFrom("mail_outbox").where("id", "in", [waiting, sending]).execute();
    }
  });

  it("refuses a lease that a send could outlast", async () => {
    const { db } = getDb();
    const transport = createSmtpTransport("smtp://127.0.0.1:25", FROM, { connectionTimeoutMs: 1_000, greetingTimeoutMs: 1_000, socketTimeoutMs: 1_000 });
    try {
      expect(() => new MailWorker(db, transport, logger, { leaseMs: 3_000 })).toThrow(/must outlast one send/);
      expect(() => new MailWorker(db, transport, logger, { leaseMs: 4_000 })).not.toThrow();
    } finally {
      transport.close();
    }
  });
});

describeEachDialect("mail exactly once when the SMTP server hangs", (getDb) => {
  it("delivers each of 30 messages exactly once with three workers while the server holds its greeting longer than the lease", async () => {
    const { db } = getDb();
    const count = 30;
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      ids.push(await enqueueMail(db, { kind: "notify", to: `hung-${index}@example.com`, subject: `Hung ${index}`, text: "x" }));
    }
    const leaseMs = 1_500;
    const smtp = await startSmtpServer({ frozenForMs: 2 * leaseMs });
    const timeouts = { connectionTimeoutMs: 200, greetingTimeoutMs: 300, socketTimeoutMs: 300 };
    const workers = [0, 1, 2].map(() => new MailWorker(db, createSmtpTransport(smtp.url, FROM, timeouts), logger, { leaseMs, retryBaseMs: 200 }));
    try {
      expect(new Set(workers.map((worker) => worker.owner)).size).toBe(3);
      for (const worker of workers) worker.start(50);
      await waitFor(async () => (await db.selectFrom("mail_outbox").select("id").where("id", "in", ids).where("status", "=", "pending").execute()).length === 0);
      await Promise.all(workers.map((worker) => worker.stop()));

      const deliveries = new Map<string, number>();
      for (const mail of smtp.received) deliveries.set(String(mail.messageId), (deliveries.get(String(mail.messageId)) ?? 0) + 1);
      expect([...deliveries].filter(([, times]) => times > 1)).toEqual([]);
      expect(deliveries.size).toBe(count);
      expect(smtp.envelopes.flat().sort()).toEqual(ids.map((_, index) => `hung-${index}@example.com`).sort());
      const rows = await db.selectFrom("mail_outbox").select(["status", "attempts"]).where("id", "in", ids).execute();
      expect(rows.every((row) => row.status === "sent")).toBe(true);
      // The hang was felt: messages timed out against it and were retried.
      expect(rows.some((row) => row.attempts > 1)).toBe(true);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await smtp.close();
    }
  }, 60_000);
});

async function waitFor(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 100));
}
