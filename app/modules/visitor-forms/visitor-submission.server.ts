import type { Transaction } from "kysely";
import type { RouterContextProvider } from "react-router";
import type { core } from "zod/mini";
import type { AppServices } from "~/services.server";
import type { Database } from "~/db/schema";
import { isUniqueViolation } from "~/db/normalize.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { submitIntro, subscribeToUpdates, type VisitorContext } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import {
  answerToRepeat,
  parseSubmissionKey,
  recordedSubmission,
  recordSubmissionKey,
  submissionFingerprint,
  type ClaimSubmission,
} from "~/modules/contacts/submission-keys.server";
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
import { DomainError } from "~/modules/errors.server";
import { runFormAction, type FormIntent } from "~/modules/forms/form-action.server";
import type { SubmittedValues } from "~/modules/forms/form-result";
import { readFormFields, validate } from "~/modules/forms/validation";
import { isRecordId } from "~/modules/http/id-shape";
import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { recordFormRefusal, type RefusalReason } from "~/modules/rate-limit/form-refusals.server";
import { retryAfterSeconds, takeFromAllowance, VISITOR_FORM_LIMITS, type RateLimitRule } from "~/modules/rate-limit/rate-limit.server";
import { findViewableProjectRefBySlug } from "~/modules/projects/projects.server";
import { announce } from "~/modules/realtime/project-events.server";
import { signalSchema } from "~/modules/signals/signal-form";
import { recordSignal } from "~/modules/signals/signals.server";

/**
 * The pitch page's three forms, from the post to the domain write: `postVisitorForm` for the page's own action and
 * `/pitch/{slug}/submit`, `answerVisitorJson` for the JSON functions (SPEC.md section 7), both through
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
  const submit: FormIntent<{ blurb?: string; next?: string }, SubmittedValues> = {
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
      });
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
  /**
   * Makes a repeat of this submission (a phone resending what it kept offline) answer the first result; bound to
   * the request's fingerprint, so another request under the same key is refused with 422.
   */
  idempotencyKey?: string | null;
};

export type VisitorOutcome = { message: string; blurb?: string };

/**
 * One entry point for the three public forms, used by the page's form action and by the JSON endpoints:
 * an idempotency key already answered, the honeypot, the form's schema, then the domain write, whose transaction
 * first claims the key (a concurrent request with the same key waits for this one) and then takes the limits
 * (per network address, per browser, per target e-mail), so a replay, a refused write and a rolled-back one take
 * nothing (decision 41). The schema runs here rather than before (as `handleFormAction` does for other forms)
 * because the key and the honeypot come first. Throws DomainError on bad input.
 */
export async function handleVisitorSubmission(
  services: Pick<AppServices, "database" | "events" | "logger" | "mailLinks" | "mail" | "pageDoor" | "webhooks">,
  submission: VisitorSubmission,
): Promise<VisitorOutcome> {
  const { db } = services.database;
  const { projectId, intent } = submission;
  if (!isRecordId(projectId)) throw new DomainError("not_found", "Project not found");
  const key = parseSubmissionKey(submission.idempotencyKey);
  const fingerprint = key ? submissionFingerprint(intent, submission.values) : null;
  /** The answer a key already recorded gives this request: the first result, or 422 for another request. */
  const answerAsRecorded = async (): Promise<VisitorOutcome | null> => {
    if (!key || !fingerprint) return null;
    const recorded = await recordedSubmission(db, projectId, key);
    return recorded ? answerToRepeat(recorded, fingerprint) : null;
  };
  const earlier = await answerAsRecorded();
  if (earlier) return earlier;
  if (submission.honeypot) {
    // Answer like a success so a script learns nothing; store nothing.
    services.logger.warn({ intent }, "honeypot filled: submission dropped");
    return { message: successMessage(intent), ...(intent === "intro" ? { blurb: "" } : {}) };
  }
  const identity = services.pageDoor.identify(projectId, {
    cookieHeader: submission.cookieHeader,
    clientAddress: submission.clientIp,
    userAgent: submission.userAgent,
  });
  const visitor: VisitorContext = { ...submission.visitor, identity };

  // A browser is its viewer cookie on its address (a copied cookie used elsewhere gets its own allowance), or
  // its address hash when it keeps no cookie.
  const browserKey = identity.viewerFingerprint ? `${identity.viewerFingerprint}:${identity.addressHash}` : identity.addressHash;
  let refusedBy: RefusalReason | null = null;
  const limit = async (trx: Transaction<Database>, reason: RefusalReason, limitKey: string, rule: RateLimitRule) => {
    if (!(await takeFromAllowance(trx, limitKey, rule))) {
      refusedBy = reason;
      throw new DomainError("rate_limited", rule.message, {}, retryAfterSeconds(rule));
    }
  };
  const claimFor =
    (email: string): ClaimSubmission =>
    async (trx, outcome) => {
      if (key && fingerprint) await recordSubmissionKey(trx, { projectId, key, intent, fingerprint }, outcome);
      await limit(trx, "address", `form:address:${submission.clientIp}`, VISITOR_FORM_LIMITS.perAddress);
      await limit(trx, "browser", `form:browser:${projectId}:${browserKey}`, VISITOR_FORM_LIMITS.perBrowser);
      await limit(trx, "email", `form:email:${projectId}:${email}`, VISITOR_FORM_LIMITS.perEmail);
    };

  try {
    const outcome = await writeSubmission(services, submission, visitor, claimFor);
    // What the write queued (mail, webhooks) leaves now rather than at the workers' next tick.
    services.mail.wake();
    services.webhooks.wake();
    return outcome;
  } catch (error) {
    // Counted once the refused transaction is rolled back (on SQLite its one connection is free only then).
    if (refusedBy) await recordFormRefusal(db, projectId, refusedBy);
    // The same key committed by a concurrent request first: this one wrote nothing, and answers as that one would.
    const winner = isUniqueViolation(error) ? await answerAsRecorded() : null;
    if (!winner) throw error;
    return winner;
  }
}

async function writeSubmission(
  services: Pick<AppServices, "database" | "events" | "logger" | "mailLinks">,
  submission: VisitorSubmission,
  visitor: VisitorContext,
  claimFor: (email: string) => ClaimSubmission,
): Promise<VisitorOutcome> {
  const { db } = services.database;
  switch (submission.intent) {
    case "intro": {
      const input = validate(introSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      const result = await submitIntro(db, services.mailLinks, submission.projectId, input.data, visitor, claimFor(input.data.email));
      // Booth screens reread on it, as on a signal's "wall" event.
      await announce(services.events, services.logger, { projectId: submission.projectId, kind: "activity" });
      return { message: INTRO_SENT_MESSAGE, blurb: result.blurb };
    }
    case "subscribe": {
      const input = validate(subscribeSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      await subscribeToUpdates(db, services.mailLinks, submission.projectId, input.data, visitor, claimFor(input.data.email));
      await announce(services.events, services.logger, { projectId: submission.projectId, kind: "activity" });
      return { message: SUBSCRIBED_MESSAGE };
    }
    case "signal": {
      const input = validate(signalSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      const result = await recordSignal(db, services.mailLinks, submission.projectId, input.data, visitor, claimFor(input.data.email));
      await announce(services.events, services.logger, { projectId: result.projectId, kind: "wall" });
      return { message: SIGNAL_RECORDED_MESSAGE };
    }
  }
}

function successMessage(intent: VisitorIntent): string {
  return intent === "intro" ? INTRO_SENT_MESSAGE : intent === "subscribe" ? SUBSCRIBED_MESSAGE : SIGNAL_RECORDED_MESSAGE;
}
