import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { expect, it } from "vitest";
import { MailWorker, retryDelayMs } from "~/modules/mail/mail-worker.server";
import { enqueueMail } from "~/modules/mail/outbox.server";
import { createFileTransport, createSmtpTransport } from "~/modules/mail/transport.server";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { MorningReportScheduler } from "~/modules/reports/morning-report.server";
import { recordScans } from "~/modules/scans/scans.server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";
import { startSmtpServer } from "../support/smtp";

const logger = pino({ level: "silent" });
const FROM = "PitchQR <no-reply@pitchqr.test>";

describeEachDialect("mail outbox and delivery", (getDb, dialect) => {
  it("delivers a queued message over SMTP with its headers, and marks it sent", async () => {
    const { db } = getDb();
    const smtp = await startSmtpServer();
    const worker = new MailWorker(db, createSmtpTransport(smtp.url, FROM), logger);
    try {
      const id = await enqueueMail(db, {
        kind: "welcome",
        to: `ada-${dialect}@example.com`,
        subject: "You're on the list\r\nBcc: victim@example.com",
        text: "Hello Ada",
        html: "<p>Hello Ada</p>",
        headers: { "List-Unsubscribe": "<https://pitch.example/u/x>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      });
      expect(await worker.runOnce()).toBe(1);
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail?.to && "text" in mail.to ? mail.to.text : "").toBe(`ada-${dialect}@example.com`);
      expect(mail?.subject).toBe("You're on the list Bcc: victim@example.com");
      expect(mail?.bcc).toBeUndefined();
      expect(mail?.text?.trim()).toBe("Hello Ada");
      const lines = mail?.headerLines.map((header) => header.line) ?? [];
      expect(lines).toContain("List-Unsubscribe: <https://pitch.example/u/x>");
      expect(lines).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      expect(lines.filter((line) => /^bcc:/i.test(line))).toEqual([]);
      const row = await db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: "sent", attempts: 1 });
      expect(await worker.runOnce()).toBe(0);
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });

  it("keeps messages while the SMTP server is down and delivers each exactly once when it is back", async () => {
    const { db } = getDb();
    let now = new Date("2026-11-20T10:00:00.000Z");
    const downPort = (await startSmtpServer().then(async (server) => (await server.close(), server.port)));
    const down = new MailWorker(db, createSmtpTransport(`smtp://127.0.0.1:${downPort}`, FROM), logger, { clock: () => now });
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push(await enqueueMail(db, { kind: "digest", to: `down-${i}@example.com`, subject: `Digest ${i}`, text: "x" }, now));
    expect(await down.runOnce()).toBe(0);
    await down.stop();
    const pending = await db.selectFrom("mail_outbox").select(["status", "last_error", "next_attempt_at"]).where("id", "in", ids).execute();
    expect(pending.every((row) => row.status === "pending" && row.last_error)).toBe(true);

    const smtp = await startSmtpServer();
    const up = new MailWorker(db, createSmtpTransport(smtp.url, FROM), logger, { clock: () => now });
    try {
      expect(await up.runOnce()).toBe(0); // not due yet: backoff
      now = new Date(now.getTime() + retryDelayMs(1) + 1_000);
      expect(await up.runOnce()).toBe(3);
      expect(await up.runOnce()).toBe(0);
      expect(smtp.received.map((mail) => mail.subject).sort()).toEqual(["Digest 0", "Digest 1", "Digest 2"]);
    } finally {
      await up.stop();
      await smtp.close();
    }
  });

  it("gives up on a permanent refusal (5xx) with the reason kept", async () => {
    const { db } = getDb();
    const smtp = await startSmtpServer({ refuseWith: () => ({ code: 550, message: "No such mailbox" }) });
    const worker = new MailWorker(db, createSmtpTransport(smtp.url, FROM), logger);
    try {
      const id = await enqueueMail(db, { kind: "confirmation", to: "nobody@example.com", subject: "Hi", text: "x" });
      await worker.runOnce();
      const row = await db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      expect(row.status).toBe("failed");
      expect(row.last_error).toMatch(/No such mailbox/);
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });

  it("retries a temporary refusal (4xx) after the backoff and then delivers it once", async () => {
    const { db } = getDb();
    let now = new Date("2026-11-20T12:00:00.000Z");
    let refusals = 1;
    const smtp = await startSmtpServer({ refuseWith: () => (refusals-- > 0 ? { code: 451, message: "Greylisted, try again later" } : null) });
    const worker = new MailWorker(db, createSmtpTransport(smtp.url, FROM), logger, { clock: () => now });
    try {
      const id = await enqueueMail(db, { kind: "welcome", to: "grey@example.com", subject: "Greylisted", text: "x" }, now);
      expect(await worker.runOnce()).toBe(0);
      const waiting = await db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
      expect(waiting.last_error).toMatch(/Greylisted/);
      expect(await worker.runOnce()).toBe(0);
      now = new Date(now.getTime() + retryDelayMs(1) + 1_000);
      expect(await worker.runOnce()).toBe(1);
      expect(smtp.received.filter((mail) => mail.subject === "Greylisted")).toHaveLength(1);
      expect(await db.selectFrom("mail_outbox").select(["status", "attempts"]).where("id", "=", id).executeTakeFirstOrThrow()).toEqual({ status: "sent", attempts: 2 });
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });

  it("retries an SMTP authentication failure (535) with backoff instead of giving up, tells the operator, and delivers once the password works", async () => {
    const { db } = getDb();
    let now = new Date("2026-11-20T14:00:00.000Z");
    let passwordWorks = false;
    const smtp = await startSmtpServer({ auth: { accept: () => passwordWorks } });
    const logged: { level: number; msg: string }[] = [];
    const recording = pino({ level: "info" }, { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) });
    const url = smtp.url.replace("smtp://", "smtp://pitchqr:wrong-password@");
    const worker = new MailWorker(db, createSmtpTransport(url, FROM), recording, { clock: () => now });
    try {
      const ids = [];
      for (let i = 0; i < 3; i += 1) ids.push(await enqueueMail(db, { kind: "welcome", to: `auth-${i}@example.com`, subject: `Auth ${i}`, text: "x" }, now));
      expect(await worker.runOnce()).toBe(0);
      const rows = await db.selectFrom("mail_outbox").select(["status", "last_error"]).where("id", "in", ids).execute();
      expect(rows.map((row) => row.status)).toEqual(["pending", "pending", "pending"]);
      expect(worker.lastAuthFailure()).toMatchObject({ since: now, reason: expect.stringMatching(/535|Authentication/) });
      expect(logged.filter((line) => line.level === 50).map((line) => line.msg)).toEqual([expect.stringMatching(/SMTP authentication failed/)]);
      // One refused login holds the worker off: the other messages are not tried against the same wrong password.
      const attempts = smtp.auth.attempts;
      expect(await worker.runOnce()).toBe(0);
      expect(smtp.auth.attempts).toBe(attempts);

      passwordWorks = true;
      now = new Date(now.getTime() + 10 * 60_000);
      expect(await worker.runOnce()).toBe(3);
      expect(smtp.received.map((mail) => mail.subject).sort()).toEqual(["Auth 0", "Auth 1", "Auth 2"]);
      expect(worker.lastAuthFailure()).toBeNull();
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });

  it("sends each message once even with two workers on the same database", async () => {
    const { db } = getDb();
    const smtp = await startSmtpServer();
    const workers = [0, 1].map(() => new MailWorker(db, createSmtpTransport(smtp.url, FROM), logger));
    try {
      const ids = [];
      for (let i = 0; i < 12; i += 1) ids.push(await enqueueMail(db, { kind: "notify", to: `twice-${i}@example.com`, subject: `Once ${i}`, text: "x" }));
      const sent = await Promise.all(workers.map((worker) => worker.runOnce()));
      expect(sent[0]! + sent[1]!).toBe(12);
      const subjects = smtp.received.map((mail) => mail.subject).filter((subject) => subject?.startsWith("Once "));
      expect(subjects).toHaveLength(12);
      expect(new Set(subjects).size).toBe(12);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await smtp.close();
    }
  });
});

describeEachDialect("mail without SMTP_URL", (getDb) => {
  it("keeps each message as an .eml file a founder can open", async () => {
    const { db } = getDb();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-mail-"));
    const worker = new MailWorker(db, createFileTransport(dir, FROM), logger);
    try {
      await enqueueMail(db, { kind: "welcome", to: "file@example.com", subject: "Saved locally", text: "Body text" });
      expect(await worker.runOnce()).toBe(1);
      const files = fs.readdirSync(dir).filter((name) => name.endsWith(".eml"));
      expect(files).toHaveLength(1);
      const raw = fs.readFileSync(path.join(dir, files[0]!), "utf8");
      expect(raw).toMatch(/^Subject: Saved locally\r$/m);
      expect(raw).toMatch(/^To: file@example\.com\r$/m);
      expect(raw).toContain("Body text");
    } finally {
      await worker.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeEachDialect("the morning-after report over SMTP", (getDb) => {
  it("arrives with the contacts CSV attached under the export's file name, as text/csv", async () => {
    const { db } = getDb();
    const ownerEmail = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const ownerId = await createUser(db, { email: ownerEmail });
    const project = await createProject(db, { ownerId, title: "Harbor Cold Chain" });
    const code = await createQrCode(db, ownerId, project.id, { label: "Booth", eventTag: "Demo Day" });
    await recordScans(db, [{ projectId: project.id, qrCodeId: code.id, viewerFingerprint: "ada" }], undefined, new Date("2026-09-14T10:00:00.000Z"));
    const intro = validate(introSchema, { name: "Ada Lovelace", email: "ada@example.com", note: "Let's talk" });
    if (!intro.ok) throw new Error(intro.formError);
    await submitIntro(db, testMailLinks, project.id, intro.data, { userId: null, sent: { at: new Date("2026-09-14T10:05:00.000Z") } });
    await new MorningReportScheduler(db, testMailLinks, { hour: 9 }, logger, { clock: () => new Date("2026-09-15T09:01:00.000Z") }).runOnce();

    const smtp = await startSmtpServer();
    const worker = new MailWorker(db, createSmtpTransport(smtp.url, FROM), logger);
    try {
      while ((await worker.runOnce()) > 0);
      const reports = smtp.received.filter((mail) => mail.subject?.startsWith("Yesterday at Demo Day"));
      expect(reports).toHaveLength(1);
      const [report] = reports;
      expect(report?.to && "text" in report.to ? report.to.text : "").toBe(ownerEmail);
      expect(report?.subject).toBe("Yesterday at Demo Day: 1 scan, 1 person acted — Harbor Cold Chain");
      expect(report?.html).toContain("https://pitch.example/project/");
      expect(report?.attachments).toHaveLength(1);
      const [file] = report!.attachments;
      expect(file?.filename).toBe("Harbor-Cold-Chain-contacts.csv");
      expect(file?.contentType).toBe("text/csv");
      expect(file?.contentDisposition).toBe("attachment");
      const exported = await exportContactsCsv(db, ownerId, project.id);
      const chunks: string[] = [];
      for await (const chunk of exported.body) chunks.push(String(chunk));
      expect(file?.content.toString("utf8")).toBe(chunks.join(""));
      expect(file?.content.toString("utf8")).toContain("Ada Lovelace");
      // Once sent, the outbox keeps the message, not its copy of the contacts.
      const settled = await db.selectFrom("mail_outbox").select(["status", "attachments"]).where("kind", "=", "morning-report").execute();
      expect(settled).toEqual([{ status: "sent", attachments: null }]);
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });
});
