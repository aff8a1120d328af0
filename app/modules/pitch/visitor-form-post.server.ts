import type { RouterContextProvider } from "react-router";
import { getSessionUser } from "~/modules/auth/session.server";
import { isDomainError } from "~/modules/errors.server";
import { readFormFields } from "~/modules/forms/validation";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { loadPitchPage, type PitchPage } from "./pitch-page.server";
import { FAILURE_MESSAGES, visitorIntentOf, type VisitorActionResult, type VisitorIntent } from "./visitor-action-result";
import { handleVisitorSubmission, type VisitorOutcome } from "./visitor-actions.server";
import { HONEYPOT_FIELD, ROLE_TAGS } from "./visitor-form-rules";

export type VisitorFormPost =
  | { page: null }
  | { page: PitchPage; intent: VisitorIntent; status: number; result: VisitorActionResult; outcome: VisitorOutcome | null };

/**
 * A pitch page form as posted to the page (no JavaScript, or the React page) or to `/pitch/{slug}/submit`
 * (the anonymous page's enhancement module, decision 13): the visitor's page, the shared submission handler,
 * and the answer as the form shows it. `idempotencyKey` makes a repeated post answer the first result.
 */
export async function postVisitorForm(
  context: Readonly<RouterContextProvider>,
  request: Request,
  slug: string,
  form: FormData,
  idempotencyKey: string | null = null,
): Promise<VisitorFormPost> {
  const { auth, database } = context.services;
  const intent = visitorIntentOf(form.get("intent"));
  const viewer = await getSessionUser(auth, request);
  const page = await loadPitchPage(database.db, slug, viewer?.id ?? null);
  if (!page) return { page: null };

  const values = readFormFields(form, { roleTags: ROLE_TAGS.length });
  try {
    const outcome = await handleVisitorSubmission(context.services, {
      intent,
      projectId: page.project.id,
      values,
      clientIp: clientIpOf(request),
      honeypot: String(form.get(HONEYPOT_FIELD) ?? ""),
      visitor: { userId: viewer?.id ?? null },
      cookieHeader: request.headers.get("cookie"),
      userAgent: request.headers.get("user-agent"),
      idempotencyKey,
    });
    return { page, intent, status: 200, outcome, result: { intent, ok: true, message: outcome.message, blurb: outcome.blurb } };
  } catch (error) {
    if (!isDomainError(error)) {
      context.logger.error({ err: error, intent }, "visitor submission failed");
      return { page, intent, status: 500, outcome: null, result: { intent, ok: false, formError: FAILURE_MESSAGES[intent], fieldErrors: {} } };
    }
    return {
      page,
      intent,
      status: error.status,
      outcome: null,
      result: { intent, ok: false, formError: error.message, fieldErrors: error.fieldErrors, values: submittedValues(values) },
    };
  }
}

/** The visitor's input, echoed back on failure (never the honeypot). */
function submittedValues(fields: Record<string, string | string[]>): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === HONEYPOT_FIELD || key === "intent" || key === "via") continue;
    values[key] = typeof value === "string" ? value.slice(0, 2000) : value;
  }
  return values;
}
