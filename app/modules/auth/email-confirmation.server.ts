import type { Kysely } from "kysely";
import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { accountMailable } from "~/modules/mail/account-mail.server";
import { accountConfirmationMail } from "~/modules/mail/account-messages.server";
import { enqueueMail } from "~/modules/mail/outbox.server";
import { consumeRateLimit, EMAIL_CONFIRMATION_LIMIT } from "~/modules/rate-limit/rate-limit.server";
import type { Auth } from "./auth.server";
import { CONFIRM_LINK_INVALID_MESSAGE, EMAIL_CONFIRMED_MESSAGE, type ConfirmEmailInput } from "./email-confirmation-form";
import { askAuth, refusal } from "./gateway.server";
import type { SessionUser } from "./session.server";

/**
 * Decision 83: a new account's address is confirmed through a link mailed at sign-up (better-auth's e-mail
 * verification: a signed token, not stored), before the app mails it anything else but a password reset.
 */
export const EMAIL_CONFIRMATION_TTL_SECONDS = 24 * 60 * 60;

/** The page a confirmation link opens: `/auth/confirm-email?token=…`; it confirms on its button, never on GET. */
export const CONFIRM_EMAIL_PATH = "/auth/confirm-email";

export type EmailConfirmationRequest = { email: string; name: string; token: string };

/** better-auth's signed token: three base64url parts. */
const CONFIRMATION_TOKEN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export function isConfirmationTokenShape(value: unknown): value is string {
  return typeof value === "string" && value.length <= 2000 && CONFIRMATION_TOKEN.test(value);
}

export function emailConfirmationUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${CONFIRM_EMAIL_PATH}?token=${encodeURIComponent(token)}`;
}

/** better-auth's `sendVerificationEmail`: the link to our confirmation page, through the outbox like every other mail. */
export async function queueEmailConfirmationMail(db: Kysely<Database>, publicUrl: string, request: EmailConfirmationRequest): Promise<void> {
  await enqueueMail(
    db,
    accountConfirmationMail({
      to: request.email,
      name: request.name,
      confirmUrl: emailConfirmationUrl(publicUrl, request.token),
      expiresInHours: EMAIL_CONFIRMATION_TTL_SECONDS / 3600,
    }),
  );
}

/** Confirms the address the link was made for, through better-auth's own check. An expired or altered link changes nothing. */
export async function confirmEmail(auth: Auth, config: AppConfig, request: Request, input: ConfirmEmailInput): Promise<{ message: string }> {
  if (!isConfirmationTokenShape(input.token)) throw new DomainError("invalid_input", CONFIRM_LINK_INVALID_MESSAGE);
  const path = `/verify-email?token=${encodeURIComponent(input.token)}`;
  const answer = await askAuth(auth, config, request, path);
  if (answer.response.ok) return { message: EMAIL_CONFIRMED_MESSAGE };
  if (answer.response.status === 401) throw new DomainError("invalid_input", CONFIRM_LINK_INVALID_MESSAGE);
  throw refusal(path, answer);
}

/** 'Send it again': a new link to the signed-in account's address, three an hour per account. */
export async function resendEmailConfirmation(auth: Auth, db: Kysely<Database>, config: AppConfig, request: Request, user: SessionUser): Promise<{ message: string }> {
  if (await accountMailable(db, user.id)) return { message: "Your e-mail address is already confirmed." };
  await consumeRateLimit(db, `email-confirmation:${user.id}`, EMAIL_CONFIRMATION_LIMIT);
  const path = "/send-verification-email";
  const answer = await askAuth(auth, config, request, path, { email: user.email });
  if (!answer.response.ok) throw refusal(path, answer);
  return { message: `We sent a new link to ${user.email}. It works for ${EMAIL_CONFIRMATION_TTL_SECONDS / 3600} hours.` };
}
