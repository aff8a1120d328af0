import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort } from "./app-server";

type SmtpServerOptions = {
  refuseWith?: () => { code: number; message: string } | null;
  /**
   * Freezes the server for this long after it starts, as a hung mail server does: it accepts connections but sends
   * its greeting only when the freeze ends (to whoever is still connected).
   */
  frozenForMs?: number;
  /** Requires AUTH (over plain text, loopback only) and answers 535 while `accept` says no, as with a wrong password. */
  auth?: { accept: () => boolean };
};

/** A real SMTP server on a free loopback port that keeps what it receives, parsed by a MIME parser. */
export async function startSmtpServer(options: SmtpServerOptions = {}) {
  const thawsAt = Date.now() + (options.frozenForMs ?? 0);
  const received: ParsedMail[] = [];
  /** The SMTP envelope recipients (RCPT TO) of each received message, in order. */
  const envelopes: string[][] = [];
  /** How many messages the server began to read (DATA accepted), whether or not they ended and were kept. */
  const data = { started: 0 };
  /** How many AUTH commands the server answered. */
  const auth = { attempts: 0 };
  const port = await freePort();
  const server = new SMTPServer({
    authOptional: !options.auth,
    allowInsecureAuth: true,
    onAuth(credentials, _session, callback) {
      auth.attempts += 1;
      if (!options.auth || options.auth.accept()) return callback(null, { user: credentials.username });
      callback(Object.assign(new Error("5.7.8 Authentication credentials invalid"), { responseCode: 535 }));
    },
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    onConnect(_session, callback) {
      setTimeout(() => callback(), Math.max(0, thawsAt - Date.now()));
    },
    onData(stream, session, callback) {
      data.started += 1;
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
  // A client that dies mid-session (a killed app) resets its connection; the server reports that here, and an
  // unheard 'error' event would end the test process.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    envelopes,
    data,
    auth,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
