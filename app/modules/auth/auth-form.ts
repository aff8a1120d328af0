import { z } from "zod/mini";

/** The /auth page's two forms; the same schemas run in the browser and in the route action. */
const email = z
  .string("Invalid email address")
  .check(z.trim(), z.maxLength(255, "Email must be less than 255 characters"), z.email("Invalid email address"));
const password = z
  .string("Password must be at least 6 characters")
  .check(z.minLength(6, "Password must be at least 6 characters"), z.maxLength(128, "Password must be at most 128 characters"));

export const signInSchema = z.object({ email, password });

export const signUpSchema = z.object({
  email,
  password,
  name: z._default(z.string().check(z.trim(), z.maxLength(100, "Name must be less than 100 characters")), ""),
});

export type SignInInput = z.infer<typeof signInSchema>;
export type SignUpInput = z.infer<typeof signUpSchema>;
