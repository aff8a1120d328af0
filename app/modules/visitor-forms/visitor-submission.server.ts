import type { Transaction } from "kysely";
import type { RouterContextProvider } from "react-router";
import type { core } from "zod/mini";
import type { AppServices } from "~/services.server";
import type { Database, HoldReason } from "~/db/schema";
import { isUniqueViolation } from "~/db/normalize.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { submitIntro, subscribeToUpdates, type VisitorContext } from "~/modules/contacts/contacts.server";
import { introSchema, type IntroInput } from "~/modules/contacts/intro-form";
import { subscribeSchema, type SubscribeInput } from "~/modules/contacts/subscribe-form";
import {
  answerToRepeat,
  parseSubmissionKey,
  recordedSubmission,
  recordSubmissionKey,
  submissionFingerprint,
  type ClaimSubmission,
  type RecordedOutcome,
} from "~/modules/contacts/submission-keys.server";
import { NEXT_STEPS, FAILURE_MESSAGES, FIELD_ORDER, HELD_MESSAGE, HONEYPOT_FIELD, INTRO_SENT_MESSAGE, ROLE_TAGS, SIGNAL_RECORDED_MESSAGE, SUBSCRIBED_MESSAGE, visitorIntentOf, type VisitorActionResult, type VisitorIntent } from "~/modules/contacts/visitor-form-rules";
import { DomainError } from "~/modules/errors.server";
import { runFormAction, type FormIntent } from "~/modules/forms/form-action.server";
import type { SubmittedValues } from "~/modules/forms/form-result";
import { readFormFields, validate } from "~/modules/forms/validation";
import { isRecordId } from "~/modules/http/id-shape";
import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { recordFormRefusal, type RefusalReason } from "~/modules/rate-limit/form-refusals.server";
import {
  countInWindow,
  FASTEST_HUMAN_FORM_MS,
  HELD_BROWSER_MS,
  HELD_FORM_CEILINGS,
  retryAfterSeconds,
  takeFromAllowance,
  VISITOR_FORM_LIMITS,
} from "~/modules/rate-limit/rate-limit.server";
import { resolveSource } from "~/modules/analytics/sources.server";
import { holdSubmission, latestHeldFromBrowser } from "~/modules/held/held-submissions.server";
import { readProjectOwnerId } from "~/modules/scans/scans.server";
import { findViewableProjectRefBySlug } from "~/modules/projects/projects.server";
import { announce } from "~/modules/realtime/project-events.server";
import { signalSchema, type SignalInput } from "~/modules/signals/signal-form";
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
    return { success: true, message: outcome.message, blurb: outcome.blurb, ...(outcome.held ? { held: true } : {}) };
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
  /**
   * When the person filled the form in, as their phone kept it offline (`X-Acted-At`); unchecked here, bounded by
   * `actedAtWithin` (decision 53).
   */
  actedAt?: string | null;
};

/** How far back a phone's own time for a kept form is believed: a queue left longer is dated this far back. */
export const ACTED_AT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The time a form kept on a phone was filled in (decision 53), bounded by the server's receipt: never later than
 * `now`, never more than ACTED_AT_MAX_AGE_MS before it; null when there is none or it is not an ISO time.
 */
export function actedAtWithin(actedAt: string | null | undefined, now: Date): Date | null {
  if (!actedAt || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(actedAt)) return null;
  const ms = Date.parse(actedAt);
  if (!Number.isFinite(ms)) return null;
  return new Date(Math.min(now.getTime(), Math.max(ms, now.getTime() - ACTED_AT_MAX_AGE_MS)));
}

export type VisitorOutcome = RecordedOutcome;

/** A form's fields as its schema parsed them, with its intent. */
export type ValidSubmission =
  | { intent: "intro"; input: IntroInput }
  | { intent: "subscribe"; input: SubscribeInput }
  | { intent: "signal"; input: SignalInput };

/** The form's own schema; throws `invalid_input` with the spec's messages. */
export function validateSubmission(intent: VisitorIntent, values: Record<string, unknown>): ValidSubmission {
  const invalid = (checked: { formError: string; fieldErrors: Record<string, string> }) => new DomainError("invalid_input", checked.formError, checked.fieldErrors);
  switch (intent) {
    case "intro": {
      const checked = validate(introSchema, values);
      if (!checked.ok) throw invalid(checked);
      return { intent, input: checked.data };
    }
    case "subscribe": {
      const checked = validate(subscribeSchema, values);
      if (!checked.ok) throw invalid(checked);
      return { intent, input: checked.data };
    }
    case "signal": {
      const checked = validate(signalSchema, values);
      if (!checked.ok) throw invalid(checked);
      return { intent, input: checked.data };
    }
  }
}

const HELD_OUTCOME: VisitorOutcome = { message: HELD_MESSAGE, held: true };

/** Thrown inside the write's transaction to roll it back when the form is to be held instead. */
class HoldInstead extends Error {
  constructor(readonly verdict: HoldVerdict) {
    super("held for review");
  }
}

/**
 * One entry point for the three public forms, used by the page's form action and by the JSON endpoints:
 * an idempotency key already answered, the form's schema, then the domain write, whose transaction first claims
 * the key (a concurrent request with the same key waits for this one) and then counts the form against the limits
 * (per network address, per browser, per target e-mail) and the hidden field and speed checks (decision 50). A
 * form that trips one is not refused: that transaction is rolled back and the form is held for the founder's review
 * in another one, which claims the key, counts it and keeps it, up to the ceilings on held forms (beyond them it
 * is refused and tallied). A replay, an invalid post and a rolled-back write take nothing (decision 41). The
 * project owner's own forms are never held. Throws DomainError on bad input.
 */
export async function handleVisitorSubmission(
  services: Pick<AppServices, "database" | "events" | "logger" | "mailLinks" | "mail" | "pageDoor" | "scans" | "webhooks" | "alerts">,
  submission: VisitorSubmission,
  now = new Date(),
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
  const valid = validateSubmission(intent, submission.values);
  const identity = services.pageDoor.identify(
    projectId,
    { cookieHeader: submission.cookieHeader, clientAddress: submission.clientIp, userAgent: submission.userAgent },
    now,
  );
  const actedAt = actedAtWithin(submission.actedAt, now);
  const visitor: VisitorContext = { ...submission.visitor, identity, ...(actedAt && !submission.visitor.sent ? { sent: { at: actedAt } } : {}) };
  // The door answers a page before its scan is written; the speed check reads this browser's latest page load
  // from `scans`, so a form sent the moment the page arrived waits for the page loads this process counted.
  await services.scans.written();
  const byOwner = submission.visitor.userId !== null && (await readProjectOwnerId(db, projectId)) === submission.visitor.userId;

  // A browser is its viewer cookie on its address (a copied cookie used elsewhere gets its own allowance), or
  // its address hash when it keeps no cookie.
  const browserKey = identity.viewerFingerprint ? `${identity.viewerFingerprint}:${identity.addressHash}` : (identity.addressHash ?? "");
  const screen = (trx: Transaction<Database>) =>
    screenSubmission(trx, {
      projectId,
      browserKey,
      clientIp: submission.clientIp,
      email: valid.input.email,
      viewerFingerprint: identity.viewerFingerprint,
      honeypot: submission.honeypot,
      byOwner,
      now,
    });
  const claimKey = async (trx: Transaction<Database>, outcome: RecordedOutcome) => {
    if (key && fingerprint) await recordSubmissionKey(trx, { projectId, key, intent, fingerprint }, outcome);
  };
  const claim: ClaimSubmission = async (trx, outcome) => {
    await claimKey(trx, outcome);
    const verdict = await screen(trx);
    if (verdict) throw new HoldInstead(verdict);
  };

  let refusedBy: RefusalReason | null = null;
  try {
    try {
      const outcome = await writeSubmission(services, projectId, valid, visitor, claim);
      // What the write queued (mail, webhooks) leaves now rather than at the workers' next tick.
      services.mail.wake();
      services.webhooks.wake();
      services.alerts.wake();
      return outcome;
    } catch (error) {
      if (!(error instanceof HoldInstead)) throw error;
      const source = await resolveSource(db, projectId, identity);
      await db.transaction().execute(async (trx) => {
        await claimKey(trx, HELD_OUTCOME);
        // Counted in every window as any form is, so the same browser's next forms see it.
        const verdict = (await screen(trx)) ?? error.verdict;
        for (const [ceiling, limitKey, rule] of [
          ["address", `held:address:${submission.clientIp}`, HELD_FORM_CEILINGS.perAddress],
          ["browser", `held:browser:${projectId}:${browserKey}`, HELD_FORM_CEILINGS.perBrowser],
        ] as const) {
          if (!(await takeFromAllowance(trx, limitKey, rule, now.getTime()))) {
            refusedBy = ceiling;
            throw new DomainError("rate_limited", rule.message, {}, retryAfterSeconds(rule));
          }
        }
        await holdSubmission(trx, {
          projectId,
          intent,
          name: valid.input.name,
          email: valid.input.email,
          fields: fieldsAsSent(intent, submission.values),
          reason: verdict.reason,
          reasonText: verdict.text,
          source,
          userId: submission.visitor.userId,
          browserKey,
          receivedAt: now,
        });
      });
      services.logger.info({ intent, reason: error.verdict.reason }, "visitor form held for review");
      return HELD_OUTCOME;
    }
  } catch (error) {
    // Counted once the refused transaction is rolled back (on SQLite its one connection is free only then).
    if (refusedBy) await recordFormRefusal(db, projectId, refusedBy);
    // The same key committed by a concurrent request first: this one wrote nothing, and answers as that one would.
    const winner = isUniqueViolation(error) ? await answerAsRecorded() : null;
    if (!winner) throw error;
    return winner;
  }
}

/** The form's own fields as the visitor sent them (nothing else a script may have added), to be validated again on accept. */
function fieldsAsSent(intent: VisitorIntent, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(FIELD_ORDER[intent].filter((name) => values[name] !== undefined).map((name) => [name, values[name]]));
}

type HoldVerdict = { reason: HoldReason; text: string };

/**
 * Counts one form against the limits, inside its transaction, and says why it is to be held, or null (decision 50):
 * the hidden field filled in, sent within seconds of opening the page, a burst from one browser, a limit per browser,
 * network or e-mail address, or a browser whose form was held minutes ago. Every window counts the form whatever
 * the verdict, so a flood is seen however it is answered. The owner's own forms are counted and never held.
 */
async function screenSubmission(
  trx: Transaction<Database>,
  form: { projectId: string; browserKey: string; clientIp: string; email: string; viewerFingerprint: string | null; honeypot: string; byOwner: boolean; now: Date },
): Promise<HoldVerdict | null> {
  const at = form.now.getTime();
  const windows = {
    address: await countInWindow(trx, `form:address:${form.clientIp}`, VISITOR_FORM_LIMITS.perAddress, at),
    burst: await countInWindow(trx, `form:burst:${form.projectId}:${form.browserKey}`, VISITOR_FORM_LIMITS.burstPerBrowser, at),
    browser: await countInWindow(trx, `form:browser:${form.projectId}:${form.browserKey}`, VISITOR_FORM_LIMITS.perBrowser, at),
    email: await countInWindow(trx, `form:email:${form.projectId}:${form.email}`, VISITOR_FORM_LIMITS.perEmail, at),
  };
  if (form.byOwner) return null;
  const within = (windowStartedAt: number) => inWords(at - windowStartedAt);
  if (form.honeypot) return { reason: "honeypot", text: "The hidden field only scripts see was filled in" };
  const opened = form.viewerFingerprint ? await latestPageLoad(trx, form.projectId, form.viewerFingerprint) : null;
  if (opened !== null && at - opened >= 0 && at - opened < FASTEST_HUMAN_FORM_MS) {
    return { reason: "speed", text: `Sent ${inWords(at - opened)} after the page was opened` };
  }
  if (windows.burst.count > VISITOR_FORM_LIMITS.burstPerBrowser.max) {
    return { reason: "burst", text: `${windows.burst.count} forms from one browser within ${within(windows.burst.windowStartedAt)}` };
  }
  if (windows.browser.count > VISITOR_FORM_LIMITS.perBrowser.max) {
    return { reason: "browser", text: `${windows.browser.count} forms from one browser within ${within(windows.browser.windowStartedAt)}` };
  }
  if (windows.address.count > VISITOR_FORM_LIMITS.perAddress.max) {
    return { reason: "address", text: `${windows.address.count.toLocaleString("en-US")} forms from one network address within ${within(windows.address.windowStartedAt)}` };
  }
  if (windows.email.count > VISITOR_FORM_LIMITS.perEmail.max) {
    return { reason: "email", text: `${windows.email.count} forms for this e-mail address within ${within(windows.email.windowStartedAt)}` };
  }
  const heldBefore = await latestHeldFromBrowser(trx, form.projectId, form.browserKey, new Date(at - HELD_BROWSER_MS));
  if (heldBefore) return { reason: "held_browser", text: `Sent ${inWords(at - heldBefore.getTime())} after another form from this browser was held` };
  return null;
}

/** When this browser last opened the project's page, as the door counted it (epoch ms), or null. */
async function latestPageLoad(trx: Transaction<Database>, projectId: string, viewerFingerprint: string): Promise<number | null> {
  const row = await trx
    .selectFrom("scans")
    .select("scanned_at")
    .where("project_id", "=", projectId)
    .where("viewer_fingerprint", "=", viewerFingerprint)
    .orderBy("scanned_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? Date.parse(String(row.scanned_at)) : null;
}

/** "0.4 seconds", "12 seconds", "3 minutes": a span as the founder reads it. */
function inWords(milliseconds: number): string {
  const ms = Math.max(0, milliseconds);
  if (ms < 10_000) {
    const seconds = Math.round(ms / 100) / 10;
    return `${seconds} ${seconds === 1 ? "second" : "seconds"}`;
  }
  if (ms < 120_000) return `${Math.round(ms / 1000)} seconds`;
  return `${Math.round(ms / 60_000)} minutes`;
}

/**
 * The domain write of a valid form, as a visitor's post or as a held form the founder accepts (`visitor.sent`
 * then carries its original time and source); `claim` runs first inside the write's transaction.
 */
export async function writeSubmission(
  services: Pick<AppServices, "database" | "events" | "logger" | "mailLinks">,
  projectId: string,
  valid: ValidSubmission,
  visitor: VisitorContext,
  claim: ClaimSubmission,
): Promise<VisitorOutcome> {
  const { db } = services.database;
  switch (valid.intent) {
    case "intro": {
      const result = await submitIntro(db, services.mailLinks, projectId, valid.input, visitor, claim);
      // Booth screens reread on it, as on a signal's "wall" event.
      await announce(services.events, services.logger, { projectId, kind: "activity" });
      return { message: INTRO_SENT_MESSAGE, blurb: result.blurb };
    }
    case "subscribe": {
      await subscribeToUpdates(db, services.mailLinks, projectId, valid.input, visitor, claim);
      await announce(services.events, services.logger, { projectId, kind: "activity" });
      return { message: SUBSCRIBED_MESSAGE };
    }
    case "signal": {
      const result = await recordSignal(db, services.mailLinks, projectId, valid.input, visitor, claim);
      await announce(services.events, services.logger, { projectId: result.projectId, kind: "wall" });
      return { message: SIGNAL_RECORDED_MESSAGE };
    }
  }
}
