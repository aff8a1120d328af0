import { z } from "zod/mini";
import { emailAddress } from "~/modules/forms/fields";

/** Non-empty and containing an at-sign. Used by the /unsubscribe form and the JSON endpoint. */
export const unsubscribeSchema = z.object({
  email: emailAddress(
    { invalid: "Please enter a valid email address.", tooLong: "Email must be less than 255 characters" },
    (value) => value.includes("@"),
  ),
});
