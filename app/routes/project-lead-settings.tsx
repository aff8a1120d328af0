import { readFormData } from "~/modules/http/form-body.server";
import { data } from "react-router";
import { LeadSettingsView } from "~/components/founder/leads/lead-settings-view";
import { requireSessionUser } from "~/modules/auth/session.server";
import { isDomainError } from "~/modules/errors.server";
import { formToObject, validate } from "~/modules/forms/validation";
import type { FormResult } from "~/modules/http/form-result";
import { leadAlertSettingsSchema } from "~/modules/leads/lead-alert-form";
import { saveLeadAlertSettings } from "~/modules/leads/lead-alerts.server";
import { loadLeadSettings } from "~/modules/leads/lead-settings.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { webhookEndpointSchema } from "~/modules/webhooks/webhook-form";
import { addWebhookEndpoint, deleteWebhookEndpoint } from "~/modules/webhooks/webhooks.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-lead-settings";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Alerts & webhooks: ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` }];

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const settings = await orRedirectToMyProjects(flashCookie, () => loadLeadSettings(database.db, user.id, params.id));
  return { ...settings, now: new Date().toISOString() };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export type LeadSettingsIntent = "alerts" | "add-webhook" | "delete-webhook";
export type LeadSettingsResult = FormResult<LeadSettingsIntent> & { secret?: string };

const FAILURE_MESSAGES: Record<LeadSettingsIntent, string> = {
  alerts: "Failed to save alert settings",
  "add-webhook": "Failed to add the webhook",
  "delete-webhook": "Failed to delete the webhook",
};

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, database, config } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const fields = formToObject(await readFormData(request));
  const intent: LeadSettingsIntent = fields.intent === "add-webhook" || fields.intent === "delete-webhook" ? fields.intent : "alerts";
  const fail = (formError: string, fieldErrors: Record<string, string>, status: number) =>
    data({ intent, ok: false, formError, fieldErrors } satisfies LeadSettingsResult, { status });
  try {
    if (intent === "add-webhook") {
      const input = validate(webhookEndpointSchema, fields);
      if (!input.ok) return fail(input.formError, input.fieldErrors, 400);
      const added = await addWebhookEndpoint(database.db, user.id, params.id, input.data, config.webhooks);
      return { intent, ok: true, message: "Webhook added", id: added.id, secret: added.secret } satisfies LeadSettingsResult;
    }
    if (intent === "delete-webhook") {
      await deleteWebhookEndpoint(database.db, user.id, params.id, fields.endpointId ?? "");
      return { intent, ok: true, message: "Webhook deleted" } satisfies LeadSettingsResult;
    }
    const input = validate(leadAlertSettingsSchema, fields);
    if (!input.ok) return fail(input.formError, input.fieldErrors, 400);
    await saveLeadAlertSettings(database.db, user.id, params.id, input.data);
    return { intent, ok: true, message: "Alert settings saved" } satisfies LeadSettingsResult;
  } catch (error) {
    if (!isDomainError(error)) {
      context.logger.error({ err: error, intent }, "lead settings failed");
      return fail(FAILURE_MESSAGES[intent], {}, 500);
    }
    return fail(error.message, error.fieldErrors, error.status);
  }
}

export default function ProjectLeadSettings({ loaderData, actionData }: Route.ComponentProps) {
  return <LeadSettingsView {...loaderData} actionData={actionData} />;
}
