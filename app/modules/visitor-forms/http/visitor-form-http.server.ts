import type { RouterContextProvider } from "react-router";
import type { core } from "zod/mini";
import { getSessionUser } from "~/modules/auth/session.server";
import { NEXT_STEPS, FAILURE_MESSAGES, HONEYPOT_FIELD, ROLE_TAGS, visitorIntentOf, type VisitorActionResult, type VisitorIntent } from "~/modules/contacts/visitor-form-rules";
import { runFormAction, type FormIntent } from "~/modules/forms/form-action.server";
import type { SubmittedValues } from "~/modules/forms/form-result";
import { readFormFields } from "~/modules/forms/validation";
import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { findViewableProjectRefBySlug } from "~/modules/projects/projects.server";
import { handleVisitorSubmission, type VisitorOutcome } from "~/modules/visitor-forms/pipeline/visitor-submission.server";

/**
 * The pitch page's three forms over HTTP: `postVisitorForm` for the page's own action and
 * `/pitch/{slug}/submit`, `answerVisitorJson` for the JSON functions, both through
 * `handleVisitorSubmission` (honeypot, limits, schema, write).
 */

export type VisitorFormPost =
  | { project: null }
  | { project: { id: string; slug: string }; intent: VisitorIntent; status: number; headers?: HeadersInit; result: VisitorActionResult; outcome: VisitorOutcome | null };

const readVisitorForm = (form: FormData) => readFormFields(form, { roleTags: ROLE_TAGS.length });

/**
 * A pitch page form as posted to the page (no JavaScript, or the React page) or to `/pitch/{slug}/submit`
 * (the anonymous page's enhancement module, decision 13): the project the visitor may see at that slug (one
 * query; a draft only for its owner, otherwise `project: null`, a 404), the shared submission handler, and the
 * answer as the form shows it. `idempotencyKey` makes a repeated post answer the first result.
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
  const project = await findViewableProjectRefBySlug(database.db, slug, viewer?.id ?? null);
  if (!project) return { project: null };

  let outcome: VisitorOutcome | null = null;
  const submit: FormIntent<{ blurb?: string; next?: string; held?: boolean }, SubmittedValues> = {
    read: readVisitorForm,
    echo: (posted) => submittedValues(readVisitorForm(posted)),
    failureMessage: FAILURE_MESSAGES[intent],
    run: async (values) => {
      outcome = await handleVisitorSubmission(context.services, {
        intent,
        projectId: project.id,
        values,
        clientIp: clientIpOf(request),
        honeypot: String(form.get(HONEYPOT_FIELD) ?? ""),
        visitor: { userId: viewer?.id ?? null },
        cookieHeader: request.headers.get("cookie"),
        userAgent: request.headers.get("user-agent"),
        idempotencyKey,
        actedAt: request.headers.get("x-acted-at"),
        visitCode: new URL(request.url).searchParams.get("qr"),
      });
      // A held form's answer says what happens to it instead; the next step follows only what happened.
      if (outcome.held) return { message: outcome.message, held: true };
      return { message: outcome.message, blurb: outcome.blurb, next: NEXT_STEPS[intent] };
    },
  };
  const answer = await runFormAction({ form, logger: context.logger, intent, intents: { intro: submit, subscribe: submit, signal: submit } });
  if (answer.kind === "response") throw new Error("visitor forms answer a result, never a response");
  return { project, intent, status: answer.status, headers: answer.headers, result: answer.result, outcome: answer.result.ok ? outcome : null };
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

/** What every visitor JSON function's body carries besides the form's fields: the project and the honeypot. */
type VisitorJsonBody = { projectId: string; website?: string | undefined };

/**
 * A JSON function's visitor form: POST only, the body checked by the function's schema and
 * unpacked by `valuesOf`, then the same handler as the page's forms, as the request's visitor. Answers
 * `{success, message, blurb?}`, or `{error}` with the DomainError's status.
 */
export async function answerVisitorJson<S extends core.$ZodType<VisitorJsonBody>>(
  context: Readonly<RouterContextProvider>,
  request: Request,
  intent: VisitorIntent,
  bodySchema: S,
  valuesOf: (body: core.output<S>) => Record<string, unknown>,
): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed();
  return respondJson(context.logger, async () => {
    const body = await readJsonBody(request, bodySchema);
    const viewer = await getSessionUser(context.services.auth, request);
    const outcome = await handleVisitorSubmission(context.services, {
      intent,
      projectId: body.projectId,
      values: valuesOf(body),
      clientIp: clientIpOf(request),
      honeypot: body.website ?? "",
      visitor: { userId: viewer?.id ?? null },
      cookieHeader: request.headers.get("cookie"),
      userAgent: request.headers.get("user-agent"),
    });
    return { success: true, message: outcome.message, blurb: outcome.blurb, ...(outcome.held ? { held: true } : {}) };
  });
}
