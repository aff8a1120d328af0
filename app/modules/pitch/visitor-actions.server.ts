import type { AppServices } from "~/services.server";
import { isUniqueViolation } from "~/db/normalize.server";
import { submitIntro, subscribeToUpdates, type VisitorContext } from "~/modules/contacts/contacts.server";
import { DomainError, isDomainError } from "~/modules/errors.server";
import { validate } from "~/modules/forms/validation";
import { recordFormRefusal, type RefusalReason } from "~/modules/rate-limit/form-refusals.server";
import { consumeRateLimit, VISITOR_FORM_LIMITS, type RateLimitRule } from "~/modules/rate-limit/rate-limit.server";
import { recordSignal } from "~/modules/signals/signals.server";
import {
  SIGNAL_RECORDED_MESSAGE,
  SUBSCRIBED_MESSAGE,
  INTRO_SENT_MESSAGE,
  type VisitorIntent,
} from "./visitor-action-result";
import { introSchema, signalSchema, subscribeSchema } from "./visitor-forms";
import { claimSubmission, parseSubmissionKey, recordedOutcome, type ClaimSubmission } from "./submission-keys.server";
import { isRecordId } from "~/modules/http/id-shape";

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
 * honeypot, the limits (per network address, per browser, per target e-mail), the shared schema, then the domain write. Throws DomainError on bad input.
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
  const limitPerEmail = (email: string) => limit("email", `form:email:${submission.projectId}:${email.toLowerCase()}`, VISITOR_FORM_LIMITS.perEmail);

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
      return { message: INTRO_SENT_MESSAGE, blurb: result.blurb, wallChanged: false };
    }
    case "subscribe": {
      const input = validate(subscribeSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      await limitPerEmail(input.data.email);
      await subscribeToUpdates(db, services.mailLinks, submission.projectId, input.data, visitor, claim);
      return { message: SUBSCRIBED_MESSAGE, wallChanged: false };
    }
    case "signal": {
      const input = validate(signalSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      await limitPerEmail(input.data.email);
      const result = await recordSignal(db, services.mailLinks, submission.projectId, input.data, visitor, claim);
      await services.events.publish({ projectId: result.projectId, kind: "wall" }).catch((error: unknown) => {
        services.logger.error({ err: error }, "could not publish wall event");
      });
      return { message: SIGNAL_RECORDED_MESSAGE, wallChanged: true };
    }
  }
}

function successMessage(intent: VisitorIntent): string {
  return intent === "intro" ? INTRO_SENT_MESSAGE : intent === "subscribe" ? SUBSCRIBED_MESSAGE : SIGNAL_RECORDED_MESSAGE;
}
