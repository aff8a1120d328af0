import { z } from "zod/mini";
import { text } from "~/modules/forms/fields";

/** The confirmation page's button: the link's token, posted back as a hidden field (never confirmed on GET). */
export const confirmEmailSchema = z.object({ token: z._default(text(2000), "") });

/** 'Send it again' on the banner: a button, nothing to fill in. */
export const resendConfirmationSchema = z.object({});

export type ConfirmEmailInput = z.infer<typeof confirmEmailSchema>;

/** A link that is unknown, expired or not copied whole: the same words on opening it and on pressing its button. */
export const CONFIRM_LINK_INVALID_MESSAGE = "This confirmation link does not work: it expired, or it was not copied whole. Sign in and send a new one from the banner.";

export const EMAIL_CONFIRMED_MESSAGE = "Your e-mail address is confirmed. Lead alerts and reports will arrive there as you chose them.";

/** The banner on founder screens while the account's address is not confirmed. */
export const CONFIRM_BANNER_MESSAGE = "Confirm your e-mail address to get alerts and reports";
