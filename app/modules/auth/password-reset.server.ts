import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { passwordResetMail } from "~/modules/mail/account-messages.server";
import { enqueueMail } from "~/modules/mail/outbox.server";

/** A reset link works for one hour, once. */
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;

/** The page a reset link opens: `/auth/reset-password?token=…`. */
export const RESET_PASSWORD_PATH = "/auth/reset-password";

export function passwordResetUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
}

export type PasswordResetRequest = { email: string; name: string; token: string };

/** better-auth's `sendResetPassword`: the link to our reset page goes out through the outbox, like every other mail. */
export async function queuePasswordResetMail(db: Kysely<Database>, publicUrl: string, reset: PasswordResetRequest): Promise<void> {
  await enqueueMail(
    db,
    passwordResetMail({
      to: reset.email,
      name: reset.name,
      resetUrl: passwordResetUrl(publicUrl, reset.token),
      expiresInMinutes: PASSWORD_RESET_TTL_SECONDS / 60,
    }),
  );
}

/**
 * After a reset link was used, every other reset link of that account stops working too: an older mail left in an
 * inbox opens nothing. better-auth keeps each reset token in `verifications` as a hashed identifier with the user's
 * id as its value, and no other verification of ours names a user (e-mail confirmations are signed, not stored).
 */
export async function endPasswordResetLinks(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom("verifications").where("value", "=", userId).execute();
}
