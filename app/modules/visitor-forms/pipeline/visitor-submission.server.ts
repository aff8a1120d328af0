import type { Transaction } from "kysely";
import type { AppServices } from "~/services.server";
import type { Database } from "~/db/schema";
import { isUniqueViolation } from "~/db/normalize.server";
import { submitIntro, subscribeToUpdates, type VisitorContext } from "~/modules/contacts/contacts.server";
import { introSchema, type IntroInput } from "~/modules/contacts/intro-form";
import { subscribeSchema, type SubscribeInput } from "~/modules/contacts/subscribe-form";
import { answerToRepeat, parseSubmissionKey, recordedSubmission, recordSubmissionKey, submissionFingerprint, type ClaimSubmission, type RecordedOutcome } from "~/modules/contacts/submission-keys.server";
import { FIELD_ORDER, HELD_MESSAGE, INTRO_SENT_MESSAGE, SIGNAL_RECORDED_MESSAGE, SUBSCRIBED_MESSAGE, type VisitorIntent } from "~/modules/contacts/visitor-form-rules";
import { DomainError } from "~/modules/errors.server";
import { validate } from "~/modules/forms/validation";
import { isRecordId } from "~/modules/http/id-shape";
import { recordFormRefusal, type RefusalReason } from "~/modules/rate-limit/form-refusals.server";
import { HELD_FORM_CEILINGS, HELD_FORMS_PER_PROJECT, retryAfterSeconds, takeFromAllowance } from "~/modules/rate-limit/rate-limit.server";
import { resolveSource } from "~/modules/analytics/sources.server";
import { hasRoomToHold, holdSubmission } from "~/modules/held/held-submissions.server";
import { moveBurstToHeld } from "~/modules/burst/accepted-forms.server";
import { pageOpenedAt } from "~/modules/scans/page-opened.server";
import { readProjectOwnerId } from "~/modules/scans/scans.server";
import { isTeamDevice } from "~/modules/scans/team-devices.server";
import { announce } from "~/modules/realtime/project-events.server";
import { signalSchema, type SignalInput } from "~/modules/signals/signal-form";
import { recordSignal } from "~/modules/signals/signals.server";
import { screenSubmission, type HoldVerdict } from "./form-screening.server";

/**
 * A visitor's form from its parsed fields to the domain write: `handleVisitorSubmission` (an idempotency key already
 * answered, the schema, the limits and checks of `screenSubmission`, then the write or the hold); its HTTP adapters
 * are in `../http/visitor-form-http.server.ts`.
 */

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
  /** The `?qr=` of the page the form was sent from (the enhancement module posts it; decision 91). */
  visitCode?: string | null;
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
 * in another one, which claims the key, counts it and keeps it, up to the ceilings on held forms per network, per
 * browser and per project (beyond them it is refused and tallied). A replay, an invalid post and a rolled-back write take nothing (decision 41). The
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
  const identity = {
    ...services.pageDoor.identify(projectId, { cookieHeader: submission.cookieHeader, clientAddress: submission.clientIp, userAgent: submission.userAgent }, now),
    visitCode: submission.visitCode ?? null,
  };
  const actedAt = actedAtWithin(submission.actedAt, now);
  const visitor: VisitorContext = { ...submission.visitor, identity, ...(actedAt && !submission.visitor.sent ? { sent: { at: actedAt } } : {}) };
  const byOwner = submission.visitor.userId !== null && (await readProjectOwnerId(db, projectId)) === submission.visitor.userId;
  // When this browser's visit began, wherever its loads were counted; the team's devices' loads never are (decision 15).
  const countedAtTheDoor = async () => !(await isTeamDevice(db, services.pageDoor, projectId, submission.visitor.userId, submission.cookieHeader));
  const openedBefore = (at: number) =>
    identity.viewerFingerprint && !byOwner ? pageOpenedAt(db, services.scans, projectId, identity.viewerFingerprint, countedAtTheDoor, at) : Promise.resolve(null);
  // A form a phone kept offline is judged by when it was filled in, not by when the reopened page sent it; one that
  // claims a time before any page load it could have been filled in on is judged by when it arrived.
  let formAt = (actedAt ?? now).getTime();
  let opened = await openedBefore(formAt);
  if (opened === null && formAt < now.getTime()) opened = await openedBefore((formAt = now.getTime()));

  // A browser is its viewer cookie on its address (a copied cookie used elsewhere gets its own allowance), or
  // its address hash when it keeps no cookie.
  const browserKey = identity.viewerFingerprint ? `${identity.viewerFingerprint}:${identity.addressHash}` : (identity.addressHash ?? "");
  // A visitor's accepted form leaves a receipt for the burst window (decision 95); the owner's are never held.
  if (!byOwner && browserKey) {
    visitor.accepted = {
      projectId,
      browserKey,
      intent,
      name: valid.input.name,
      email: valid.input.email,
      fields: fieldsAsSent(intent, submission.values),
      userId: submission.visitor.userId,
      sentAt: actedAt ?? now,
      receivedAt: now,
      receipt: {},
    };
  }
  const screen = (trx: Transaction<Database>) =>
    screenSubmission(trx, {
      projectId,
      browserKey,
      clientIp: submission.clientIp,
      email: valid.input.email,
      opened,
      formAt,
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
      let moved = 0;
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
        if (!(await hasRoomToHold(trx, projectId, now))) {
          refusedBy = "project";
          throw new DomainError("rate_limited", HELD_FORMS_PER_PROJECT.message, {}, HELD_FORMS_PER_PROJECT.retryAfterSeconds);
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
          sentAt: actedAt ?? now,
        });
        // A burst: what this browser had accepted in its window is held with it (decision 95).
        if (verdict.reason === "burst") moved = await moveBurstToHeld(trx, projectId, browserKey, now);
      });
      services.logger.info({ intent, reason: error.verdict.reason, moved }, "visitor form held for review");
      if (moved) {
        // Booth screens, the wall and founders' pages reread without what was taken back.
        await announce(services.events, services.logger, { projectId, kind: "activity" });
        await announce(services.events, services.logger, { projectId, kind: "wall" });
      }
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
