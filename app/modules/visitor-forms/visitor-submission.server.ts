import type { RouterContextProvider } from "react-router";
import type { core } from "zod/mini";
import type { AppServices } from "~/services.server";
import { isUniqueViolation } from "~/db/normalize.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { submitIntro, subscribeToUpdates, type VisitorContext } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { claimSubmission, parseSubmissionKey, recordedOutcome, type ClaimSubmission } from "~/modules/contacts/submission-keys.server";
import {
  NEXT_STEPS,
  FAILURE_MESSAGES,
  HONEYPOT_FIELD,
  INTRO_SENT_MESSAGE,
  ROLE_TAGS,
  SIGNAL_RECORDED_MESSAGE,
  SUBSCRIBED_MESSAGE,
  visitorIntentOf,
  type VisitorActionResult,
  type VisitorIntent,
} from "~/modules/contacts/visitor-form-rules";
import { DomainError, isDomainError } from "~/modules/errors.server";
import { runFormAction, type FormIntent } from "~/modules/forms/form-action.server";
import type { SubmittedValues } from "~/modules/forms/form-result";
import { readFormFields, validate } from "~/modules/forms/validation";
import { isRecordId } from "~/modules/http/id-shape";
import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { loadPitchPage, type PitchPage } from "~/modules/pitch/pitch-page.server";
import { recordFormRefusal, type RefusalReason } from "~/modules/rate-limit/form-refusals.server";
import { consumeRateLimit, VISITOR_FORM_LIMITS, type RateLimitRule } from "~/modules/rate-limit/rate-limit.server";
import { announce } from "~/modules/realtime/project-events.server";
import { signalSchema } from "~/modules/signals/signal-form";
import { recordSignal } from "~/modules/signals/signals.server";

/**
 * The pitch page's three forms, from the post to the domain write: `postVisitorForm` for the page's own action and
 * `/pitch/{slug}/submit`, `answerVisitorJson` for the JSON functions (SPEC.md section 7), both through
 * `handleVisitorSubmission` (honeypot, limits, schema, write).
 */

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
  const submit: FormIntent<{ blurb?: string; next?: string }, SubmittedValues> = {
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
      return { message: outcome.message, blurb: outcome.blurb, next: NEXT_STEPS[intent] };
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

/** What every visitor JSON function's body carries besides the form's fields: the project and the honeypot. */
type VisitorJsonBody = { projectId: string; website?: string | undefined };

/**
 * A JSON function's visitor form (SPEC.md section 7): POST only, the body checked by the function's schema and
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
    return { success: true, message: outcome.message, blurb: outcome.blurb };
  });
}

export type VisitorSubmission = {
  intent: VisitorIntent;
  projectId: string;
  values: Record<string, unknown>;
  clientIp: string;
  honeypot: string;
  visitor: VisitorContext;
  /** The request's Cookie and User-Agent headers: who the page door counted, for attribution (decision 16). */
  cookieHeader?: string | null;
  userAgent?: string | null;
  /** Makes a repeat of this submission (a phone resending what it kept offline) answer the first result. */
  idempotencyKey?: string | null;
};

export type VisitorOutcome = { message: string; blurb?: string; wallChanged: boolean };

/**
 * One entry point for the three public forms, used by the page's form action and by the JSON endpoints:
 * honeypot, the limits (per network address, per browser, per target e-mail), the form's schema, then the domain
 * write. The schema runs here rather than before (as `handleFormAction` does for other forms) because the honeypot
 * and the limits come first. Throws DomainError on bad input.
 */
export async function handleVisitorSubmission(
  services: Pick<AppServices, "database" | "events" | "logger" | "mailLinks" | "mail" | "pageDoor" | "webhooks">,
  submission: VisitorSubmission,
): Promise<VisitorOutcome> {
  const { db } = services.database;
  if (!isRecordId(submission.projectId)) throw new DomainError("not_found", "Project not found");
  const key = parseSubmissionKey(submission.idempotencyKey);
  if (key) {
    const earlier = await recordedOutcome(db, submission.projectId, key);
    if (earlier) return { ...earlier, wallChanged: false };
  }
  if (submission.honeypot) {
    // Answer like a success so a script learns nothing; store nothing.
    services.logger.warn({ intent: submission.intent }, "honeypot filled: submission dropped");
    return { message: successMessage(submission.intent), wallChanged: false, ...(submission.intent === "intro" ? { blurb: "" } : {}) };
  }
  const identity = services.pageDoor.identify(submission.projectId, {
    cookieHeader: submission.cookieHeader,
    clientAddress: submission.clientIp,
    userAgent: submission.userAgent,
  });
  const visitor: VisitorContext = { ...submission.visitor, identity };
  const limit = (reason: RefusalReason, key: string, rule: RateLimitRule) =>
    consumeRateLimit(db, key, rule).catch(async (error: unknown) => {
      if (isDomainError(error) && error.code === "rate_limited") await recordFormRefusal(db, submission.projectId, reason);
      throw error;
    });
  await limit("address", `form:address:${submission.clientIp}`, VISITOR_FORM_LIMITS.perAddress);
  // A browser is its viewer cookie on its address (a copied cookie used elsewhere gets its own allowance), or
  // its address hash when it keeps no cookie.
  const browserKey = identity.viewerFingerprint ? `${identity.viewerFingerprint}:${identity.addressHash}` : identity.addressHash;
  await limit("browser", `form:browser:${submission.projectId}:${browserKey}`, VISITOR_FORM_LIMITS.perBrowser);
  const limitPerEmail = (email: string) => limit("email", `form:email:${submission.projectId}:${email}`, VISITOR_FORM_LIMITS.perEmail);

  const claim = key ? claimSubmission(submission.projectId, key, submission.intent) : undefined;
  try {
    const outcome = await writeSubmission(services, submission, visitor, limitPerEmail, claim);
    // What the write queued (mail, webhooks) leaves now rather than at the workers' next tick.
    services.mail.wake();
    services.webhooks.wake();
    return outcome;
  } catch (error) {
    // The same key committed by a concurrent request first: this one wrote nothing, and answers as that one.
    const winner = key && isUniqueViolation(error) ? await recordedOutcome(db, submission.projectId, key) : null;
    if (!winner) throw error;
    return { ...winner, wallChanged: false };
  }
}

async function writeSubmission(
  services: Pick<AppServices, "database" | "events" | "logger" | "mailLinks">,
  submission: VisitorSubmission,
  visitor: VisitorContext,
  limitPerEmail: (email: string) => Promise<void>,
  claim: ClaimSubmission | undefined,
): Promise<VisitorOutcome> {
  const { db } = services.database;
  switch (submission.intent) {
    case "intro": {
      const input = validate(introSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      await limitPerEmail(input.data.email);
      const result = await submitIntro(db, services.mailLinks, submission.projectId, input.data, visitor, claim);
      // Booth screens reread on it, as on a signal's "wall" event.
      await announce(services.events, services.logger, { projectId: submission.projectId, kind: "activity" });
      return { message: INTRO_SENT_MESSAGE, blurb: result.blurb, wallChanged: false };
    }
    case "subscribe": {
      const input = validate(subscribeSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      await limitPerEmail(input.data.email);
      await subscribeToUpdates(db, services.mailLinks, submission.projectId, input.data, visitor, claim);
      await announce(services.events, services.logger, { projectId: submission.projectId, kind: "activity" });
      return { message: SUBSCRIBED_MESSAGE, wallChanged: false };
    }
    case "signal": {
      const input = validate(signalSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      await limitPerEmail(input.data.email);
      const result = await recordSignal(db, services.mailLinks, submission.projectId, input.data, visitor, claim);
      await announce(services.events, services.logger, { projectId: result.projectId, kind: "wall" });
      return { message: SIGNAL_RECORDED_MESSAGE, wallChanged: true };
    }
  }
}

function successMessage(intent: VisitorIntent): string {
  return intent === "intro" ? INTRO_SENT_MESSAGE : intent === "subscribe" ? SUBSCRIBED_MESSAGE : SIGNAL_RECORDED_MESSAGE;
}
