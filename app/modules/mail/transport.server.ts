import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { QueuedMail } from "./outbox.server";

export type MailTransport = {
  send(mail: QueuedMail): Promise<{ delivered: string }>;
  close(): void;
};

function message(from: string, mail: QueuedMail) {
  return {
    from,
    // An address object is used as given: never parsed into several recipients.
    to: { name: "", address: mail.recipient },
    subject: mail.subject,
    text: mail.text_body,
    ...(mail.html_body ? { html: mail.html_body } : {}),
    headers: mail.mail_headers,
    messageId: `<${mail.id}@pitchqr.outbox>`,
  };
}

/**
 * Real delivery over SMTP (`SMTP_URL`, e.g. smtp://user:pass@host:587). Pooled unless the URL says `pool=false`:
 * a connection per message costs about 100 ms (handshake and greeting), a pooled one under 10 ms a message.
 */
export function createSmtpTransport(smtpUrl: string, from: string): MailTransport {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has("pool")) url.searchParams.set("pool", "true");
  const transporter = nodemailer.createTransport(url.toString());
  return {
    async send(mail) {
      const info = await transporter.sendMail(message(from, mail));
      return { delivered: String(info.messageId ?? mail.id) };
    },
    close: () => transporter.close(),
  };
}

/**
 * The embedded default without `SMTP_URL`: each message is kept as an .eml file under `DATA_DIR/mail/`, so
 * nothing is lost and a founder can open it in any mail program.
 */
export function createFileTransport(directory: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  return {
    async send(mail) {
      const info = await transporter.sendMail(message(from, mail));
      await fs.mkdir(directory, { recursive: true });
      const file = path.join(directory, `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.kind}-${mail.id}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      return { delivered: file };
    },
    close: () => transporter.close(),
  };
}

/** An SMTP answer that will not change on retry (5xx), as opposed to a server that is down or busy (4xx, network). */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500;
}
