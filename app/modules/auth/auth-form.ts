import { z } from "zod/mini";
import { emailAddress, text } from "~/modules/forms/fields";

/** The /auth pages' forms; the same schemas run in the browser and in the route actions. */
const email = emailAddress({ invalid: "Invalid email address", tooLong: "Email must be less than 255 characters" }, (value) => z.regexes.email.test(value));

/** At least 6 characters; the one rule for a new account's password and a reset one. */
const password = z
  .string("Password must be at least 6 characters")
  .check(z.minLength(6, "Password must be at least 6 characters"), z.maxLength(128, "Password must be at most 128 characters"));

export const signInSchema = z.object({ email, password });

export const signUpSchema = z.object({
  email,
  password,
  name: z._default(text(100, "Name must be less than 100 characters"), ""),
  /** An invitation link's token, when sign-up is by invitation (SIGNUP=invite); ignored otherwise. */
  invitation: z._default(text(100), ""),
  /** The browser's IANA time zone (decision 53), sent hidden; kept only when it is one, so it never refuses a sign-up. */
  timeZone: z._default(text(64), ""),
});

/** "Forgot password?": only the address; the answer is the same whether or not it has an account. */
export const forgotPasswordSchema = z.object({ email });

/** A reset link that is unknown, used, expired or malformed: the same words on opening it and on submitting it. */
export const RESET_LINK_INVALID_MESSAGE =
  "This reset link does not work: it was already used, it expired, or it was not copied whole. Ask for a new link below.";

/** The reset page's form: the link's token (a hidden field) and the new password. */
export const resetPasswordSchema = z.object({ token: z._default(text(100), ""), password });

/** 'Create invitation link' on My Projects: a button, nothing to fill in (SIGNUP=invite). */
export const invitationFormSchema = z.object({});

export type SignInInput = z.infer<typeof signInSchema>;
export type SignUpInput = z.infer<typeof signUpSchema>;
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;
