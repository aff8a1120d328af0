// 'Send me a test e-mail' (decision 40): one message to the founder, sent at once through the app's
// transport with short timeouts, reporting what a real SMTP server (or the mail folder) did with it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { expect, it } from "vitest";
import { sendTestMail, smtpSecrets, TEST_MAIL_TIMEOUTS } from "~/modules/mail/test-mail.server";
import { createMailTransport } from "~/modules/mail/transport.server";
import { freePort } from "../support/app-server";
import { describeEachDialect } from "../support/databases";
import { createProject, createUser } from "../support/fixtures";
import { startSmtpServer } from "../support/smtp";

const logger = pino({ level: "silent" });
const FROM = "PitchQR <no-reply@pitchqr.test>";

async function founder(db: Parameters<typeof createUser>[0]) {
  const email = `founder-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const id = await createUser(db, { email });
  const project = await createProject(db, { ownerId: id, title: "Harbor Test" });
  return { user: { id, email }, project };
}

describeEachDialect("the founder's test e-mail", (getDb) => {
  it("reports the SMTP server's acceptance with its answer, and the message arrives at the founder's address only", async () => {
    const { db } = getDb();
    const { user, project } = await founder(db);
    const smtp = await startSmtpServer();
    try {
      const result = await sendTestMail(db, () => createMailTransport({ smtpUrl: smtp.url, mailFrom: FROM, mailDir: "unused" }, TEST_MAIL_TIMEOUTS), user, project.id, logger);
      expect(result).toMatchObject({ outcome: "delivered", to: user.email });
      expect(result.detail).toMatch(/^250 /);
      expect(smtp.envelopes).toEqual([[user.email]]);
      expect(smtp.received[0]?.subject).toBe("Test e-mail from PitchQR (Harbor Test)");
      // Sent directly: nothing waits in the outbox.
      expect(await db.selectFrom("mail_outbox").select("id").where("recipient", "=", user.email).execute()).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it("reports a refusal with the server's reply", async () => {
    const { db } = getDb();
    const { user, project } = await founder(db);
    const smtp = await startSmtpServer({ refuseWith: () => ({ code: 550, message: "5.7.1 Relaying denied for test" }) });
    try {
      const result = await sendTestMail(db, () => createMailTransport({ smtpUrl: smtp.url, mailFrom: FROM, mailDir: "unused" }, TEST_MAIL_TIMEOUTS), user, project.id, logger);
      expect(result).toMatchObject({ outcome: "refused", to: user.email });
      expect(result.detail).toContain("550");
      expect(result.detail).toContain("Relaying denied for test");
      expect(smtp.received).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it("never shows the SMTP user name or password, even when a server's reply repeats them", async () => {
    const { db } = getDb();
    const { user, project } = await founder(db);
    const smtp = await startSmtpServer({ refuseWith: () => ({ code: 554, message: "5.7.1 sender pitch-mailer with password Tr0ub4dor&3 is not allowed" }) });
    const smtpUrl = `smtp://pitch-mailer:${encodeURIComponent("Tr0ub4dor&3")}@127.0.0.1:${smtp.port}`;
    expect(smtpSecrets(smtpUrl)).toEqual(expect.arrayContaining(["Tr0ub4dor&3", "pitch-mailer"]));
    try {
      const result = await sendTestMail(
        db,
        () => createMailTransport({ smtpUrl: smtp.url, mailFrom: FROM, mailDir: "unused" }, TEST_MAIL_TIMEOUTS),
        user,
        project.id,
        logger,
        smtpSecrets(smtpUrl),
      );
      expect(result.outcome).toBe("refused");
      expect(result.detail).toContain("554");
      expect(result.detail).not.toMatch(/Tr0ub4dor|pitch-mailer/);
    } finally {
      await smtp.close();
    }
  });

  it("says when no server answers, and names the file when mail is kept on disk", async () => {
    const { db } = getDb();
    const { user, project } = await founder(db);
    const closedPort = await freePort();
    const unreachable = await sendTestMail(
      db,
      () => createMailTransport({ smtpUrl: `smtp://127.0.0.1:${closedPort}`, mailFrom: FROM, mailDir: "unused" }, TEST_MAIL_TIMEOUTS),
      user,
      project.id,
      logger,
    );
    expect(unreachable).toMatchObject({ outcome: "unreachable", to: user.email });
    expect(unreachable.detail).toContain("ECONNREFUSED");

    const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-test-mail-"));
    try {
      const kept = await sendTestMail(db, () => createMailTransport({ smtpUrl: undefined, mailFrom: FROM, mailDir }, TEST_MAIL_TIMEOUTS), user, project.id, logger);
      expect(kept).toMatchObject({ outcome: "kept", to: user.email });
      expect(path.dirname(kept.detail)).toBe(mailDir);
      expect(fs.readFileSync(kept.detail, "utf8")).toContain(`To: ${user.email}`);
    } finally {
      fs.rmSync(mailDir, { recursive: true, force: true });
    }
  });

  it("allows 5 per founder in 10 minutes, then refuses with a wait and sends nothing; another founder's project is not found", async () => {
    const { db } = getDb();
    const { user, project } = await founder(db);
    const other = await founder(db);
    const smtp = await startSmtpServer();
    const open = () => createMailTransport({ smtpUrl: smtp.url, mailFrom: FROM, mailDir: "unused" }, TEST_MAIL_TIMEOUTS);
    try {
      await expect(sendTestMail(db, open, user, other.project.id, logger)).rejects.toMatchObject({ code: "not_found" });
      for (let sent = 0; sent < 5; sent += 1) expect((await sendTestMail(db, open, user, project.id, logger)).outcome).toBe("delivered");
      await expect(sendTestMail(db, open, user, project.id, logger)).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 600 });
      expect(smtp.received).toHaveLength(5);
      // The other founder has an allowance of their own.
      expect((await sendTestMail(db, open, other.user, other.project.id, logger)).outcome).toBe("delivered");
    } finally {
      await smtp.close();
    }
  });
});
