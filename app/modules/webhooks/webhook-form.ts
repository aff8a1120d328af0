import { z } from "zod/mini";
import { requiredText } from "~/modules/forms/fields";
import { isHttpUrl } from "~/modules/forms/plain-checks";

export const WEBHOOK_URL_MESSAGE = "Enter the webhook's URL, starting with https://";
export const WEBHOOK_NOT_FOUND_MESSAGE = "Webhook not found in this project";
export const MAX_WEBHOOKS_PER_PROJECT = 5;

/** 'Add a webhook', run by the browser and the server; the server then checks where the URL really points. */
export const webhookEndpointSchema = z.object({
  url: requiredText(2048, "Webhook URLs must be at most 2,048 characters", WEBHOOK_URL_MESSAGE).check(z.refine(isHttpUrl, WEBHOOK_URL_MESSAGE)),
});
export type WebhookEndpointInput = z.infer<typeof webhookEndpointSchema>;

/** The receiver's side, shown to the founder beside the secret: how to check that a delivery came from us. */
export const VERIFY_SIGNATURE_SNIPPET = `// Node.js: verify a PitchQR webhook before trusting it
import crypto from "node:crypto";

function verifyPitchQr(rawBody, headers, secret) {
  const timestamp = headers["x-pitchqr-timestamp"];
  const signature = headers["x-pitchqr-signature"] ?? "";
  const expected = "sha256=" + crypto.createHmac("sha256", secret).update(timestamp + "." + rawBody).digest("hex");
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return fresh && signature.length === expected.length &&
    crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}`;
