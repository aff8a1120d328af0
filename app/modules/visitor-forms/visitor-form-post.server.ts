import type { RouterContextProvider } from "react-router";
import { getSessionUser } from "~/modules/auth/session.server";
import {
  FAILURE_MESSAGES,
  HONEYPOT_FIELD,
  ROLE_TAGS,
  visitorIntentOf,
  type VisitorActionResult,
  type VisitorIntent,
} from "~/modules/contacts/visitor-form-rules";
import { runFormAction, type FormIntent } from "~/modules/forms/form-action.server";
import type { SubmittedValues } from "~/modules/forms/form-result";
import { readFormFields } from "~/modules/forms/validation";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { loadPitchPage, type PitchPage } from "~/modules/pitch/pitch-page.server";
import { handleVisitorSubmission, type VisitorOutcome } from "./visitor-submission.server";

export type VisitorFormPost =
  | { page: null }
  | { page: PitchPage; intent: VisitorIntent; status: number; headers?: HeadersInit; result: VisitorActionResult; outcome: VisitorOutcome | null };

const readVisitorForm = (form: FormData) => readFormFields(form, { roleTags: ROLE_TAGS.length });

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

  let outcome: VisitorOutcome | null = null;
  const submit: FormIntent<{ blurb?: string }, SubmittedValues> = {
    read: readVisitorForm,
    echo: (posted) => submittedValues(readVisitorForm(posted)),
    failureMessage: FAILURE_MESSAGES[intent],
    run: async (values) => {
      outcome = await handleVisitorSubmission(context.services, {
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
      return { message: outcome.message, blurb: outcome.blurb };
    },
  };
  const answer = await runFormAction({ form, logger: context.logger, intent, intents: { intro: submit, subscribe: submit, signal: submit } });
  if (answer.kind === "response") throw new Error("visitor forms answer a result, never a response");
  return { page, intent, status: answer.status, headers: answer.headers, result: answer.result, outcome: answer.result.ok ? outcome : null };
}

/** The visitor's input, echoed back on failure (never the honeypot). */
function submittedValues(fields: SubmittedValues): SubmittedValues {
  const values: SubmittedValues = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === HONEYPOT_FIELD || key === "intent" || key === "via") continue;
    values[key] = typeof value === "string" ? value.slice(0, 2000) : value;
  }
  return values;
}
