import { z } from "zod/mini";
import { checkbox, text } from "~/modules/forms/fields";

/**
 * What pushes and Slack posts tell of: a lead's intro request, signal or following updates, and deck reading (a
 * lead opening the deck, another reader's visit summed up; decision 99).
 */
export const ALERT_KINDS = ["intro", "signal", "follow", "reading"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_KIND_LABELS: Record<AlertKind, string> = { intro: "Intro requests", signal: "Signals", follow: "New followers", reading: "Deck reading" };

/** Per project: which kinds are pushed to the owner's devices and posted to the project's Slack. */
export const alertChannelsSchema = z.object({
  pushIntro: checkbox,
  pushSignal: checkbox,
  pushFollow: checkbox,
  pushReading: checkbox,
  slackIntro: checkbox,
  slackSignal: checkbox,
  slackFollow: checkbox,
  slackReading: checkbox,
});
export type AlertChannels = z.infer<typeof alertChannelsSchema>;

export const SLACK_URL_MESSAGE = "Enter a Slack incoming-webhook URL, such as https://hooks.slack.com/services/T000/B000/XXXX";
/** Slack's incoming webhooks (and workflow triggers) live under these paths of hooks.slack.com. */
const SLACK_URL_PATTERN = /^https:\/\/hooks\.slack\.com\/(services|workflows|triggers)\/[A-Za-z0-9_/-]{8,500}$/;

export function isSlackWebhookUrl(value: string): boolean {
  return SLACK_URL_PATTERN.test(value);
}

/** The project's Slack incoming-webhook URL; the server then checks where it resolves (decision 56). */
export const slackUrlSchema = z.object({
  slackUrl: text(600, SLACK_URL_MESSAGE).check(z.refine(isSlackWebhookUrl, SLACK_URL_MESSAGE)),
});
export type SlackUrlInput = z.infer<typeof slackUrlSchema>;

export const PUSH_SUBSCRIPTION_MESSAGE = "This browser's push subscription could not be read; turn notifications on again";
/** base64url of exactly `bytes` bytes (no padding). */
const base64urlOf = (bytes: number) =>
  z.string(PUSH_SUBSCRIPTION_MESSAGE).check(z.regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`), PUSH_SUBSCRIPTION_MESSAGE));

/**
 * A device's push subscription as the browser's `PushSubscription.toJSON()` gives it (flattened for a form): the
 * endpoint (checked against the push services by the server), the P-256 public key (65 bytes) and the auth secret
 * (16 bytes), and a name for the device.
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string(PUSH_SUBSCRIPTION_MESSAGE).check(z.trim(), z.minLength(12, PUSH_SUBSCRIPTION_MESSAGE), z.maxLength(2048, PUSH_SUBSCRIPTION_MESSAGE)),
  p256dh: base64urlOf(65),
  auth: base64urlOf(16),
  device: z.pipe(z.optional(text(80)), z.transform((value: string | undefined) => value || "This device")),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const PUSH_ENDPOINT_REFUSED_MESSAGE = "This browser's push service is not one we deliver to; notifications stay off on this device";
