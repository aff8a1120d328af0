import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "~/modules/logging/logger.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DomainError } from "~/modules/errors.server";
import { accountMailable } from "./account-mail.server";
import { consumeRateLimit, TEST_MAIL_LIMIT } from "~/modules/rate-limit/rate-limit.server";
import type { TestMailResult } from "./test-mail";
import { isServerRefusal, type MailTransport, type SmtpTimeouts } from "./transport.server";
import { testMail } from "./founder-messages.server";

/** Short: the founder is watching the button. A server that has not answered by then is reported as not answering. */
export const TEST_MAIL_TIMEOUTS: SmtpTimeouts = { connectionTimeoutMs: 5_000, greetingTimeoutMs: 5_000, socketTimeoutMs: 5_000 };

/** The test e-mail goes to the founder's own address, which is mailed nothing but the confirmation until confirmed. */
export const TEST_MAIL_UNCONFIRMED_MESSAGE = "Confirm your e-mail address first: open the link we sent you, or send it again from the banner above.";

/**
 * 'Send me a test e-mail' (decision 40): one message to the signed-in founder's own address, sent at once
 * through a transport like the mail worker's (same SMTP_URL and MAIL_FROM, or the same mail folder) but with short
 * timeouts, not through the outbox, so the founder sees what actually happened: accepted by the SMTP server (with
 * its answer), refused (with its reply), no answer, or kept on disk (the file). Five per founder per 10 minutes.
 */
export async function sendTestMail(
  db: Kysely<Database>,
  openTransport: () => MailTransport,
  founder: { id: string; email: string },
  projectId: string,
  logger: Logger,
  /** Words the result must not show (the SMTP credentials, `smtpSecrets`). */
  secrets: string[] = [],
): Promise<TestMailResult> {
  const project = await requireProjectRole(db, founder.id, projectId, "settings");
  if (!(await accountMailable(db, founder.id))) throw new DomainError("forbidden", TEST_MAIL_UNCONFIRMED_MESSAGE);
  await consumeRateLimit(db, `test-mail:${founder.id}`, TEST_MAIL_LIMIT);
  const mail = testMail({ to: founder.email, projectTitle: project.title });
  const transport = openTransport();
  const id = crypto.randomUUID();
  let result: TestMailResult;
  try {
    const sent = await transport.send(
      {
        id,
        kind: mail.kind,
        recipient: mail.to,
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html ?? null,
        mail_headers: mail.headers ?? {},
        reply_to: null,
        calendar_ics: null,
        attachments: null,
        attempts: 0,
        outcomeUnknownSince: null,
        handedOverAt: null,
      },
      async () => {},
    );
    result = sent.keptAs
      ? { outcome: "kept", to: founder.email, detail: sent.keptAs }
      : { outcome: "delivered", to: founder.email, detail: sent.response || "accepted" };
  } catch (error) {
    const reply = (error as { response?: unknown } | null)?.response;
    const reason = error instanceof Error ? error.message : String(error);
    result = isServerRefusal(error)
      ? { outcome: "refused", to: founder.email, detail: typeof reply === "string" && reply ? reply : reason }
      : { outcome: "unreachable", to: founder.email, detail: reason };
  } finally {
    transport.close();
  }
  result.detail = withoutSecrets(result.detail, secrets);
  logger.info({ mailId: id, kind: mail.kind, outcome: result.outcome, detail: result.detail }, "test mail");
  return result;
}

/** The SMTP user name and password, which an error message must never carry to the founder's screen. */
export function smtpSecrets(smtpUrl: string | undefined): string[] {
  if (!smtpUrl) return [];
  try {
    const url = new URL(smtpUrl);
    return [url.password, decodeURIComponent(url.password), url.username, decodeURIComponent(url.username)].filter((secret) => secret.length >= 3);
  } catch {
    return [];
  }
}

function withoutSecrets(text: string, secrets: string[]): string {
  return secrets.reduce((shown, secret) => shown.split(secret).join("…"), text);
}
