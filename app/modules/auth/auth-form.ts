import { z } from "zod/mini";
import { emailAddress, text } from "~/modules/forms/fields";

/** The /auth page's two forms; the same schemas run in the browser and in the route action. */
const email = emailAddress({ invalid: "Invalid email address", tooLong: "Email must be less than 255 characters" }, (value) => z.regexes.email.test(value));
const password = z
  .string("Password must be at least 6 characters")
  .check(z.minLength(6, "Password must be at least 6 characters"), z.maxLength(128, "Password must be at most 128 characters"));

export const signInSchema = z.object({ email, password });

export const signUpSchema = z.object({
  email,
  password,
  name: z._default(text(100, "Name must be less than 100 characters"), ""),
});

export type SignInInput = z.infer<typeof signInSchema>;
export type SignUpInput = z.infer<typeof signUpSchema>;
