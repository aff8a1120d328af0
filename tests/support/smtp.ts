import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort } from "./app-server";

/** A real SMTP server on a free loopback port that keeps what it receives, parsed by a MIME parser. */
export async function startSmtpServer(options: { refuseWith?: () => { code: number; message: string } | null } = {}) {
  const received: ParsedMail[] = [];
  /** The SMTP envelope recipients (RCPT TO) of each received message, in order. */
  const envelopes: string[][] = [];
  const port = await freePort();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const refusal = options.refuseWith?.();
      if (refusal) {
        stream.resume();
        stream.on("end", () => callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          envelopes.push(session.envelope.rcptTo.map((recipient) => recipient.address));
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    envelopes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
