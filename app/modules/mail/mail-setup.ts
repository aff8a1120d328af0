/**
 * Whether the app's mail reaches anybody: without `SMTP_URL` every message is only kept as a file on
 * the server, and a sender at `localhost` is refused or filed as spam by receiving servers. Pure, so it runs at
 * start-up (one log line) and in the loaders of the founder screens that show a banner.
 */

export type MailSetupProblem =
  /** No SMTP_URL: every message is kept as an .eml file in the mail folder. */
  | "kept-on-disk"
  /** SMTP_URL is set but MAIL_FROM is an address at localhost (the default). */
  | "localhost-sender"
  /** The SMTP server refuses this app's login (EAUTH): mail waits and is retried with backoff. */
  | "login-refused";

export type MailSetupWarning = { problem: MailSetupProblem; title: string; message: string };

export type MailSetup = {
  smtpUrl: string | undefined;
  mailFrom: string;
  mailFolder: string;
  /** Since when the SMTP server has refused the login, if it does now (the mail worker's `lastAuthFailure`). */
  loginRefusedSince?: Date | null;
};


/** The address part of `Name <address>` or a bare address, lowercased. */
export function senderAddress(mailFrom: string): string {
  const bracketed = /<([^<>]*)>\s*$/.exec(mailFrom);
  return (bracketed ? bracketed[1]! : mailFrom).trim().toLowerCase();
}

/** A sender no receiving server accepts as real: at localhost, a *.localhost name, or a bare host name. */
export function isLocalSender(mailFrom: string): boolean {
  const domain = senderAddress(mailFrom).split("@")[1]?.replace(/\.$/, "") ?? "";
  return domain === "" || domain === "localhost" || domain.endsWith(".localhost") || !domain.includes(".") || domain.startsWith("127.");
}

/**
 * Null when mail goes to an SMTP server from a real sender; otherwise what is wrong, where the mail is, and how
 * to set SMTP. Only the folder and the sender are named: never the SMTP address (it may carry a password).
 */
export function mailSetupWarning(setup: MailSetup): MailSetupWarning | null {
  if (setup.smtpUrl && setup.loginRefusedSince) {
    return {
      problem: "login-refused",
      title: "E-mail is on hold",
      message:
        `Your SMTP server has refused PitchQR's login since ${setup.loginRefusedSince.toISOString().replace("T", " ").slice(0, 16)} UTC. ` +
        "No message is lost: they wait and go out once the login works. Check the user name and password in SMTP_URL, then restart PitchQR.",
    };
  }
  if (!setup.smtpUrl) {
    return {
      problem: "kept-on-disk",
      title: "E-mail is not sent",
      message:
        `Mail is kept as .eml files in ${setup.mailFolder}/ on the server and reaches nobody. To send it, set SMTP_URL ` +
        '(for example smtp://user:password@smtp.example.com:587) and MAIL_FROM (for example "Pitch <pitch@example.com>"), then restart PitchQR.',
    };
  }
  if (isLocalSender(setup.mailFrom)) {
    const address = senderAddress(setup.mailFrom) || setup.mailFrom;
    return {
      problem: "localhost-sender",
      title: "E-mail may not arrive",
      message:
        `Mail goes to your SMTP server, but from ${address}, a sender that receiving servers refuse or file as spam. ` +
        'Set MAIL_FROM to a sender at your own domain (for example "Pitch <pitch@example.com>"), then restart PitchQR.',
    };
  }
  return null;
}
