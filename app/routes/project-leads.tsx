import { WORKSPACE_INSTALL } from "~/modules/icons/web-manifest";
import { readFormData } from "~/modules/http/form-body.server";
import { data } from "react-router";
import { operatorBannerFor } from "~/modules/operator/operator-banner.server";
import { LeadsView } from "~/components/founder/leads/leads-view";
import { requireSessionUser } from "~/modules/auth/session.server";
import type { core } from "zod/mini";
import { callIntent, handleFormAction, intentOf } from "~/modules/forms/form-action.server";
import { formToObject } from "~/modules/forms/validation";
import {
  leadAwaitingSchema,
  leadEmailSchema,
  leadTemperatureSchema,
  leadTriageSchema,
  readLeadFilters,
  type LeadAwaitingInput,
  type LeadEmailInput,
  type LeadTemperatureInput,
  type LeadTriageInput,
} from "~/modules/leads/lead-forms";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { markAwaitingFollowUp, setLeadTemperature, updateLeadTriage } from "~/modules/leads/inbox/lead-triage.server";
import { logLeadCall } from "~/modules/leads/replies/lead-replies.server";
import { addLeadEmail } from "~/modules/leads/replies/lead-email.server";
import { leadCallSchema, type LeadCallInput } from "~/modules/leads/replies/reply-form";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-leads";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Leads: ${loaderData?.inbox.project.title ?? "Project"} · ${PRODUCT_NAME}` }];

/** The founder workspace is an installable app of its own (decision 56). */
export const handle = { install: () => WORKSPACE_INSTALL };

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const filters = readLeadFilters(url.searchParams);
  const started = performance.now();
  const inbox = await orRedirectToMyProjects(flashCookie, () => openLeadInbox(database.db, user.id, params.id, filters));
  const serverTiming = `leads;desc="lead inbox load";dur=${(performance.now() - started).toFixed(2)}`;
  return data(
    { inbox, projectRole: inbox.project.role, filters, now: new Date().toISOString(), setupBanner: operatorBannerFor(context.services, request, url, inbox.project.role, ["mail"]), memberId: user.id },
    { headers: { "Server-Timing": serverTiming } },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  const timing = loaderHeaders.get("Server-Timing");
  if (timing) headers.set("Server-Timing", timing);
  return headers;
};

export type LeadsIntent = "triage" | "temperature" | "call" | "awaiting" | "email";

/**
 * POST intent=triage: a lead's status and private note; intent=temperature: hot, warm, cold or none; intent=call: a
 * logged call (a history line that counts as the response); intent=awaiting: a person met in person now waits for a
 * follow-up; intent=email: a person met without an e-mail gets one, so they can be answered. Another founder's post answers 'not found' (a document
 * post then follows the loader to /my-projects, as on the edit screen); a lead of another project changes nothing.
 */
/** The lead a failure is about, so only its card shows the error. */
const leadOf = (form: FormData) => formToObject(form).leadId;

/** A change to one lead: its failure and its success are both about that lead's card. */
function leadChange<Input extends { leadId: string }>(schema: core.$ZodType<Input>, failureMessage: string, change: (input: Input) => Promise<unknown>, message: string) {
  return { ...callIntent(schema, failureMessage, change, (input) => ({ message, id: input.leadId })), subjectOf: leadOf };
}

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, database } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  const db = database.db;
  return handleFormAction<LeadsIntent>({
    form,
    logger: context.logger,
    intent: intentOf(form, ["triage", "temperature", "call", "awaiting", "email"]),
    intents: {
      triage: leadChange(leadTriageSchema, "Failed to save the lead", (input: LeadTriageInput) => updateLeadTriage(db, user.id, params.id, input), "Lead saved"),
      awaiting: leadChange(leadAwaitingSchema, "Failed to save the lead", (input: LeadAwaitingInput) => markAwaitingFollowUp(db, user.id, params.id, input.leadId), "Waiting for your follow-up"),
      email: leadChange(leadEmailSchema, "Failed to save the e-mail", (input: LeadEmailInput) => addLeadEmail(db, user.id, params.id, input), "E-mail added: you can reply now"),
      temperature: leadChange(leadTemperatureSchema, "Failed to save the lead", (input: LeadTemperatureInput) => setLeadTemperature(db, user.id, params.id, input), "Lead saved"),
      call: leadChange(leadCallSchema, "Failed to log the call", (input: LeadCallInput) => logLeadCall(db, user.id, params.id, input), "Call logged"),
    },
  });
}

export default function ProjectLeads({ loaderData, actionData }: Route.ComponentProps) {
  return <LeadsView {...loaderData} actionData={actionData} />;
}
