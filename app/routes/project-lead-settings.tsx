import { WORKSPACE_INSTALL } from "~/modules/icons/web-manifest";
import { readFormData } from "~/modules/http/form-body.server";
import { operatorBannerFor } from "~/modules/operator/operator-banner.server";
import { LeadSettingsView } from "~/components/founder/leads/lead-settings-view";
import { requireSessionUser } from "~/modules/auth/session.server";
import { callIntent, handleFormAction, intentOf, postedText } from "~/modules/forms/form-action.server";
import type { FormResult } from "~/modules/forms/form-result";
import { leadAlertSettingsSchema, type LeadAlertSettings } from "~/modules/leads/inbox/lead-alert-form";
import { saveLeadAlertSettings } from "~/modules/leads/inbox/lead-alerts.server";
import { loadLeadSettings } from "~/modules/leads/inbox/lead-settings.server";
import { qualifyingQuestionSchema, readQuestionForm, type QualifyingQuestionInput } from "~/modules/leads/inbox/qualifying-question";
import { saveQualifyingQuestion } from "~/modules/leads/inbox/qualifying-question.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import {
  alertChannelsSchema,
  pushSubscriptionSchema,
  slackUrlSchema,
  type AlertChannels,
  type PushSubscriptionInput,
  type SlackUrlInput,
} from "~/modules/founder-alerts/alert-channel-form";
import { addPushSubscription, removePushSubscription, removeSlackUrl, saveAlertChannels, saveSlackUrl } from "~/modules/founder-alerts/founder-alerts.server";
import { webhookEndpointSchema, type WebhookEndpointInput } from "~/modules/webhooks/webhook-form";
import { addWebhookEndpoint, deleteWebhookEndpoint, resumeWebhookEndpoint, sendWebhookTestEvent, type WebhookTestOutcome } from "~/modules/webhooks/webhooks.server";
import { testMailMessage, type TestMailResult } from "~/modules/mail/test-mail";
import { sendTestMail, smtpSecrets, TEST_MAIL_TIMEOUTS } from "~/modules/mail/test-mail.server";
import { createMailTransport } from "~/modules/mail/transport.server";
import { morningReportSchema, type MorningReportInput } from "~/modules/reports/morning-report-form";
import { getMorningReportSetting, saveMorningReportSetting } from "~/modules/reports/morning-report-settings.server";
import { morningReportSchedule, sendYesterdayReportNow } from "~/modules/reports/morning-report-now.server";
import { roleAllows } from "~/modules/access/roles";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-lead-settings";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Lead settings: ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` }];

/** The founder workspace is an installable app of its own (decision 56). */
export const handle = { install: () => WORKSPACE_INSTALL };

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie, config } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const settings = await orRedirectToMyProjects(flashCookie, () => loadLeadSettings(database.db, user.id, params.id));
  const morningReport = await getMorningReportSetting(database.db, user.id, params.id);
  const reportSchedule = roleAllows(settings.projectRole, "export") ? await morningReportSchedule(database.db, user.id, params.id, config.digest.hour) : null;
  return { ...settings, morningReport: morningReport.enabled, reportSchedule, vapidPublicKey: config.push.vapid.publicKey, now: new Date().toISOString(), setupBanner: operatorBannerFor(context.services, request, url, settings.projectRole, ["mail"]) };
}

export type LeadSettingsIntent =
  | "question"
  | "alerts"
  | "morning-report"
  | "report-now"
  | "test-mail"
  | "add-webhook"
  | "delete-webhook"
  | "test-webhook"
  | "resume-webhook"
  | "channels"
  | "slack-url"
  | "remove-slack"
  | "push-on"
  | "push-off";
type LeadSettingsExtra = { secret?: string; testMail?: TestMailResult; testWebhook?: WebhookTestOutcome };
export type LeadSettingsResult = FormResult<LeadSettingsIntent, LeadSettingsExtra>;

const SETTINGS_INTENTS = [
  "question",
  "alerts",
  "morning-report",
  "report-now",
  "test-mail",
  "add-webhook",
  "delete-webhook",
  "test-webhook",
  "resume-webhook",
  "channels",
  "slack-url",
  "remove-slack",
  "push-on",
  "push-off",
] as const;

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, database, config, webhooks, mailLinks, mail } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  return handleFormAction<LeadSettingsIntent, LeadSettingsExtra>({
    form,
    logger: context.logger,
    intent: intentOf(form, SETTINGS_INTENTS),
    intents: {
      question: {
        schema: qualifyingQuestionSchema,
        read: readQuestionForm,
        failureMessage: "Failed to save the question",
        run: async (input: QualifyingQuestionInput) => {
          await saveQualifyingQuestion(database.db, user.id, params.id, input);
          return { message: input ? "Question saved: your pitch page asks it now" : "Question removed" };
        },
      },
      alerts: callIntent(leadAlertSettingsSchema, "Failed to save alert settings", (input: LeadAlertSettings) => saveLeadAlertSettings(database.db, user.id, params.id, input), { message: "Alert settings saved" }),
      "morning-report": callIntent(morningReportSchema, "Failed to save the morning-after report setting", (input: MorningReportInput) => saveMorningReportSetting(database.db, user.id, params.id, input), (input) => ({
        message: input.morningReport === "on" ? "Morning-after report on" : "Morning-after report off",
      })),
      "report-now": {
        failureMessage: "Failed to send the report",
        run: async () => {
          await sendYesterdayReportNow(database.db, mailLinks, user, params.id);
          mail.wake();
          return { message: `Yesterday's report is on its way to ${user.email}` };
        },
      },
      "test-mail": {
        failureMessage: "Failed to send the test e-mail",
        run: async () => {
          const openTransport = () => createMailTransport(config, TEST_MAIL_TIMEOUTS);
          const result = await sendTestMail(database.db, openTransport, user, params.id, context.logger, smtpSecrets(config.smtpUrl));
          return { message: testMailMessage(result), testMail: result };
        },
      },
      "add-webhook": callIntent(webhookEndpointSchema, "Failed to add the webhook", (input: WebhookEndpointInput) => addWebhookEndpoint(database.db, user.id, params.id, input, config.webhooks), (_input, added) => ({
        message: "Webhook added",
        id: added.id,
        secret: added.secret,
      })),
      channels: callIntent(alertChannelsSchema, "Failed to save what goes where", (input: AlertChannels) => saveAlertChannels(database.db, user.id, params.id, input), { message: "Push and Slack settings saved" }),
      "slack-url": callIntent(slackUrlSchema, "Failed to save the Slack webhook", (input: SlackUrlInput) => saveSlackUrl(database.db, user.id, params.id, input, config.webhooks), { message: "Slack webhook saved" }),
      "remove-slack": callIntent(undefined, "Failed to remove the Slack webhook", () => removeSlackUrl(database.db, user.id, params.id), { message: "Slack webhook removed" }),
      "push-on": callIntent(pushSubscriptionSchema, "Failed to turn notifications on", (input: PushSubscriptionInput) => addPushSubscription(database.db, user.id, params.id, input, config.push.services), {
        message: "Notifications on for this device",
      }),
      "push-off": callIntent(undefined, "Failed to turn notifications off", (_input, posted) => removePushSubscription(database.db, user.id, params.id, postedText(posted, "endpoint")), {
        message: "Notifications off on this device",
      }),
      "delete-webhook": callIntent(undefined, "Failed to delete the webhook", (_input, posted) => deleteWebhookEndpoint(database.db, user.id, params.id, postedText(posted, "endpointId")), { message: "Webhook deleted" }),
      "test-webhook": callIntent(
        undefined,
        "Failed to send a test event",
        (_input, posted) => sendWebhookTestEvent(database.db, user.id, params.id, postedText(posted, "endpointId"), () => webhooks.wake()),
        (_input, outcome) => ({ message: outcome.delivered ? "Test event delivered" : "Test event not delivered", testWebhook: outcome }),
      ),
      "resume-webhook": {
        failureMessage: "Failed to resume the webhook",
        run: async (_input, posted) => {
          await resumeWebhookEndpoint(database.db, user.id, params.id, postedText(posted, "endpointId"));
          webhooks.wake();
          return { message: "Webhook resumed: what waited for it is being sent" };
        },
      },
    },
  });
}

export default function ProjectLeadSettings({ loaderData, actionData }: Route.ComponentProps) {
  return <LeadSettingsView {...loaderData} actionData={actionData} />;
}
