import type { FormResult } from "~/modules/forms/form-result";
import type { TestMailResult } from "~/modules/mail/test-mail";
import type { WebhookTestOutcome } from "~/modules/webhooks/webhooks.server";

/** What the lead settings action answers: a form result, with the new webhook's secret or a test's outcome. */
export type SettingsResult = FormResult & { secret?: string; testMail?: TestMailResult; testWebhook?: WebhookTestOutcome };
