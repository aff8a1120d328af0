import fs from "node:fs/promises";
import path from "node:path";
import { pipeline, Transform, type TransformCallback } from "node:stream";
import nodemailer from "nodemailer";
import type { QueuedMail } from "./outbox.server";

/**
 * Called once the receiving side has the whole message but before the send is completed (for SMTP: before the
 * `<CRLF>.<CRLF>` that ends the data). The send completes only after it resolves; when it rejects, the send is
 * abandoned without completing it (the SMTP connection is closed mid-data, so the server discards the message).
 */
export type BeforeEndOfData = () => Promise<void>;

export type MailTransport = {
  /**
   * `delivered`: the Message-ID the SMTP server accepted, or the file the message was kept in; `response`: the SMTP
   * server's answer to the end of data ("250 2.0.0 OK …"), absent when the message was kept as a file.
   */
  send(mail: QueuedMail, beforeEndOfData: BeforeEndOfData): Promise<{ delivered: string; response?: string; keptAs?: string }>;
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
    // As an address object, like the recipient: never parsed into several addresses.
    ...(mail.reply_to ? { replyTo: { name: "", address: mail.reply_to } } : {}),
    // A `text/calendar; method=REQUEST` alternative: what Gmail, Apple Mail and Outlook show as an invitation.
    ...(mail.calendar_ics ? { icalEvent: { method: "REQUEST", filename: "invite.ics", content: mail.calendar_ics } } : {}),
    // Named files (the morning-after report's CSV, decision 66), each with its own content type.
    ...(mail.attachments?.length ? { attachments: mail.attachments.map((file) => ({ filename: file.filename, contentType: file.contentType, content: file.content })) } : {}),
    headers: mail.mail_headers,
    messageId: `<${mail.id}@pitchqr.outbox>`,
  };
}

/** How long an SMTP send may wait for each step; their sum bounds one message (`maxSendMs`). */
export type SmtpTimeouts = { connectionTimeoutMs: number; greetingTimeoutMs: number; socketTimeoutMs: number };

/** Long enough for a slow but working server; the mail worker's claim (2 min with these) is sized to their sum. */
export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectionTimeoutMs: 10_000, greetingTimeoutMs: 15_000, socketTimeoutMs: 30_000 };

/** nodemailer's own names for the timeouts in an SMTP URL's query, and ours. */
const TIMEOUT_PARAMETERS = [
  ["connectionTimeout", "connectionTimeoutMs"],
  ["greetingTimeout", "greetingTimeoutMs"],
  ["socketTimeout", "socketTimeoutMs"],
] as const;

/**
 * The timeouts an SMTP URL names in its query (nodemailer's `connectionTimeout`, `greetingTimeout`, `socketTimeout`,
 * in milliseconds), each one it leaves out from `fallback`: an operator whose relay is near and quick may shorten
 * them, and with them how long a dead instance's claims hold its mail (decision 49). A value that is not a whole
 * number of milliseconds from 1 to 600,000 is refused with a message naming it.
 */
export function smtpTimeoutsOf(smtpUrl: string, fallback: SmtpTimeouts = DEFAULT_SMTP_TIMEOUTS): SmtpTimeouts {
  const query = new URL(smtpUrl).searchParams;
  const timeouts = { ...fallback };
  for (const [parameter, field] of TIMEOUT_PARAMETERS) {
    const text = query.get(parameter);
    if (text === null) continue;
    const ms = Number(text);
    if (!/^\d+$/.test(text) || ms < 1 || ms > 600_000) {
      throw new Error(`SMTP_URL's ${parameter} must be a whole number of milliseconds from 1 to 600000, such as ${fallback[field]}`);
    }
    timeouts[field] = ms;
  }
  return timeouts;
}

/**
 * Real delivery over SMTP (`SMTP_URL`, e.g. smtp://user:pass@host:587). Pooled unless the URL says `pool=false`:
 * a connection per message costs about 100 ms (handshake and greeting), a pooled one under 10 ms a message.
 * Each send is abandoned (its connection closed) once the sum of the timeouts has passed, even when a server keeps
 * answering slowly enough to never trip the idle timeout, so a send never outlives `maxSendMs`. The timeouts are
 * the URL's own (`smtpTimeoutsOf`), else `fallback`.
 */
export function createSmtpTransport(smtpUrl: string, from: string, fallback: SmtpTimeouts = DEFAULT_SMTP_TIMEOUTS): MailTransport {
  const timeouts = smtpTimeoutsOf(smtpUrl, fallback);
  const url = new URL(smtpUrl);
  if (!url.searchParams.has("pool")) url.searchParams.set("pool", "true");
  // Written out in full: the worker's claim is sized to exactly these.
  url.searchParams.set("connectionTimeout", String(timeouts.connectionTimeoutMs));
  url.searchParams.set("greetingTimeout", String(timeouts.greetingTimeoutMs));
  url.searchParams.set("socketTimeout", String(timeouts.socketTimeoutMs));
  const transporter = nodemailer.createTransport(url.toString());
  const maxSendMs = timeouts.connectionTimeoutMs + timeouts.greetingTimeoutMs + timeouts.socketTimeoutMs;
  /** The hand-over of each message being sent, by Message-ID. */
  const handOvers = new Map<string, BeforeEndOfData>();
  // The last stage of the message stream, the one nodemailer's SMTP connection pipes into the DATA stream once the
  // server has answered DATA with 354; the connection writes the terminating dot when that stream ends.
  transporter.use("stream", (mail, done) => {
    const handOver = handOvers.get(String(mail.data.messageId));
    if (handOver) mail.message.processFunc((input) => pipeline(input, new EndOfDataGate(handOver), () => {}));
    done();
  });
  return {
    maxSendMs,
    async send(mail, beforeEndOfData) {
      const content = message(from, mail);
      handOvers.set(content.messageId, beforeEndOfData);
      try {
        const info = await transporter.sendMail({ ...content, signal: AbortSignal.timeout(maxSendMs) });
        return { delivered: String(info.messageId ?? mail.id), response: String(info.response ?? "") };
      } finally {
        handOvers.delete(content.messageId);
      }
    },
    close: () => transporter.close(),
  };
}

/** The app's transport: SMTP when `SMTP_URL` is set, otherwise files in `DATA_DIR/mail`. */
export function createMailTransport(config: { smtpUrl: string | undefined; mailFrom: string; mailDir: string }, fallback: SmtpTimeouts = DEFAULT_SMTP_TIMEOUTS): MailTransport {
  return config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.mailFrom, fallback) : createFileTransport(config.mailDir, config.mailFrom);
}

/**
 * The embedded default without `SMTP_URL`: each message is kept as an .eml file under `DATA_DIR/mail/`, so
 * nothing is lost and a founder can open it in any mail program.
 */
export function createFileTransport(directory: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  return {
    async send(mail, beforeEndOfData) {
      const info = await transporter.sendMail(message(from, mail));
      await fs.mkdir(directory, { recursive: true });
      const file = path.join(directory, `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.kind}-${mail.id}.eml`);
      // Written aside and renamed into place only once handed over: a crash before leaves no message behind.
      await fs.writeFile(`${file}.partial`, info.message as Buffer);
      await beforeEndOfData();
      await fs.rename(`${file}.partial`, file);
      return { delivered: file, keptAs: file };
    },
    maxSendMs: 10_000,
    close: () => transporter.close(),
  };
}

/**
 * Passes the message through, but ends it only after the hand-over resolved, and only once the SMTP connection
 * reads it: nodemailer pipes the message into the DATA stream after the server's 354, and the DATA stream writes
 * the terminating `<CRLF>.<CRLF>` when the message ends. Before that the stages in between may buffer the whole
 * (small) message, so reading alone does not mean the server is listening; the pipe into DATA does. A hand-over that
 * fails fails the stream instead: the connection is closed mid-data, and the server discards what it got.
 */
class EndOfDataGate extends Transform {
  readonly #dataStarted: Promise<void>;
  #startData!: () => void;

  constructor(private readonly handOver: BeforeEndOfData) {
    super();
    this.#dataStarted = new Promise((resolve) => (this.#startData = resolve));
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    this.#startData();
    return super.pipe(destination, options);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.#dataStarted.then(() => this.handOver()).then(
      () => callback(),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

/** The server answered with a refusal (an SMTP reply code), as opposed to no answer at all (a timeout, a lost connection). */
export function isServerRefusal(error: unknown): boolean {
  return typeof (error as { responseCode?: unknown } | null)?.responseCode === "number";
}

/**
 * The SMTP server refused our login (nodemailer's `EAUTH`; 535 bad credentials, 530 authentication required): a
 * fault of the operator's SMTP_URL, not of the message, so the message waits until the operator fixes it.
 */
export function isAuthFailure(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return code === "EAUTH" || responseCode === 535 || responseCode === 530;
}

/** An SMTP answer that will not change on retry (5xx), as opposed to a server that is down or busy (4xx, network). */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && !isAuthFailure(error);
}
