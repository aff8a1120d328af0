import { z } from "zod";

/** The /auth page's two forms; the same schemas run in the browser and in the route action. */
const email = z.string().trim().max(255, "Email must be less than 255 characters").pipe(z.email("Invalid email address"));
const password = z
  .string()
  .min(6, "Password must be at least 6 characters")
  .max(128, "Password must be at most 128 characters");

export const signInSchema = z.object({ email, password });

export const signUpSchema = z.object({
  email,
  password,
  name: z.string().trim().max(100, "Name must be less than 100 characters").default(""),
});

export type SignInInput = z.infer<typeof signInSchema>;
export type SignUpInput = z.infer<typeof signUpSchema>;
