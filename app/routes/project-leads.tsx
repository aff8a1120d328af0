import { readFormData } from "~/modules/http/form-body.server";
import { data } from "react-router";
import { LeadsView } from "~/components/founder/leads/leads-view";
import { requireSessionUser } from "~/modules/auth/session.server";
import { isDomainError } from "~/modules/errors.server";
import { formToObject, validate } from "~/modules/forms/validation";
import type { FormResult } from "~/modules/http/form-result";
import { leadTriageSchema, readLeadFilters } from "~/modules/leads/lead-forms";
import { openLeadInbox, updateLeadTriage } from "~/modules/leads/leads.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-leads";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Leads: ${loaderData?.inbox.project.title ?? "Project"} · ${PRODUCT_NAME}` }];

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const filters = readLeadFilters(url.searchParams);
  const started = performance.now();
  const inbox = await orRedirectToMyProjects(flashCookie, () => openLeadInbox(database.db, user.id, params.id, filters));
  const serverTiming = `leads;desc="lead inbox load";dur=${(performance.now() - started).toFixed(2)}`;
  return data({ inbox, filters, now: new Date().toISOString() }, { headers: { "Server-Timing": serverTiming } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  const timing = loaderHeaders.get("Server-Timing");
  if (timing) headers.set("Server-Timing", timing);
  return headers;
};

export type LeadsIntent = "triage";

/**
 * POST intent=triage: a lead's status and private note. Another founder's post answers 'not found' (a document
 * post then follows the loader to /my-projects, as on the edit screen); a lead of another project changes nothing.
 */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, database } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  const fail = (formError: string, fieldErrors: Record<string, string>, status: number, leadId?: string) =>
    data({ intent: "triage", ok: false, formError, fieldErrors, id: leadId } satisfies FormResult<LeadsIntent> & { id?: string }, { status });
  const fields = formToObject(form);
  const input = validate(leadTriageSchema, fields);
  if (!input.ok) return fail(input.formError, input.fieldErrors, 400, fields.leadId);
  try {
    await updateLeadTriage(database.db, user.id, params.id, input.data);
    return { intent: "triage", ok: true, message: "Lead saved", id: input.data.leadId } satisfies FormResult<LeadsIntent>;
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return fail(error.message, error.fieldErrors, error.status, input.data.leadId);
  }
}

export default function ProjectLeads({ loaderData, actionData }: Route.ComponentProps) {
  return <LeadsView {...loaderData} actionData={actionData} />;
}
