import { z } from "zod/mini";

/** SPEC.md section 5: non-empty and containing an at-sign. Used by the /unsubscribe form and the JSON endpoint. */
export const unsubscribeSchema = z.object({
  email: z
    .string("Please enter a valid email address.")
    .check(
      z.trim(),
      z.maxLength(255, "Email must be less than 255 characters"),
      z.refine((value: string) => value.includes("@"), "Please enter a valid email address."),
    ),
});
