import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { QueuedMail } from "./outbox.server";

export type MailTransport = {
  send(mail: QueuedMail): Promise<{ delivered: string }>;
  /**
   * The longest one `send` can take before it is abandoned and its connection closed: after it, nothing of the
   * message is still on its way. A worker's claim must outlast it.
   */
  readonly maxSendMs: number;
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

/** How long an SMTP send may wait for each step; their sum bounds one message (`maxSendMs`). */
export type SmtpTimeouts = { connectionTimeoutMs: number; greetingTimeoutMs: number; socketTimeoutMs: number };

/** Well under the mail worker's two-minute claim, and long enough for a slow but working server. */
export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectionTimeoutMs: 10_000, greetingTimeoutMs: 15_000, socketTimeoutMs: 30_000 };

/**
 * Real delivery over SMTP (`SMTP_URL`, e.g. smtp://user:pass@host:587). Pooled unless the URL says `pool=false`:
 * a connection per message costs about 100 ms (handshake and greeting), a pooled one under 10 ms a message.
 * Each send is abandoned (its connection closed) once the sum of the timeouts has passed, even when a server keeps
 * answering slowly enough to never trip the idle timeout, so a send never outlives `maxSendMs`.
 */
export function createSmtpTransport(smtpUrl: string, from: string, timeouts: SmtpTimeouts = DEFAULT_SMTP_TIMEOUTS): MailTransport {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has("pool")) url.searchParams.set("pool", "true");
  // Set over any the URL names: the worker's claim is sized to these.
  url.searchParams.set("connectionTimeout", String(timeouts.connectionTimeoutMs));
  url.searchParams.set("greetingTimeout", String(timeouts.greetingTimeoutMs));
  url.searchParams.set("socketTimeout", String(timeouts.socketTimeoutMs));
  const transporter = nodemailer.createTransport(url.toString());
  const maxSendMs = timeouts.connectionTimeoutMs + timeouts.greetingTimeoutMs + timeouts.socketTimeoutMs;
  return {
    maxSendMs,
    async send(mail) {
      const info = await transporter.sendMail({ ...message(from, mail), signal: AbortSignal.timeout(maxSendMs) });
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
    maxSendMs: 10_000,
    close: () => transporter.close(),
  };
}

/** An SMTP answer that will not change on retry (5xx), as opposed to a server that is down or busy (4xx, network). */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500;
}
