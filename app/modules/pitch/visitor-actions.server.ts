import type { AppServices } from "~/services.server";
import { submitIntro, subscribeToUpdates, type VisitorContext } from "~/modules/contacts/contacts.server";
import { DomainError } from "~/modules/errors.server";
import { isStorableText } from "~/modules/forms/storable-text";
import { validate } from "~/modules/forms/validation";
import { consumeRateLimit, PUBLIC_FORM_LIMIT } from "~/modules/rate-limit/rate-limit.server";
import { recordSignal } from "~/modules/signals/signals.server";
import {
  SIGNAL_RECORDED_MESSAGE,
  SUBSCRIBED_MESSAGE,
  INTRO_SENT_MESSAGE,
  type VisitorIntent,
} from "./visitor-action-result";
import { introSchema, signalSchema, subscribeSchema } from "./visitor-forms";

export type VisitorSubmission = {
  intent: VisitorIntent;
  projectId: string;
  values: Record<string, unknown>;
  clientIp: string;
  honeypot: string;
  visitor: VisitorContext;
  /** The `?qr=` code the visitor arrived with, if any. */
  qrCodeId?: string | null;
};

export type VisitorOutcome = { message: string; blurb?: string; wallChanged: boolean };

/**
 * One entry point for the three public forms, used by the page's form action and by the JSON endpoints:
 * honeypot, per-visitor rate limit, the shared schema, then the domain write. Throws DomainError on bad input.
 */
export async function handleVisitorSubmission(
  services: Pick<AppServices, "database" | "events" | "logger" | "mailLinks" | "mail" | "webhooks">,
  submission: VisitorSubmission,
): Promise<VisitorOutcome> {
  const { db } = services.database;
  if (submission.honeypot) {
    // Answer like a success so a script learns nothing; store nothing.
    services.logger.warn({ intent: submission.intent }, "honeypot filled: submission dropped");
    return { message: successMessage(submission.intent), wallChanged: false, ...(submission.intent === "intro" ? { blurb: "" } : {}) };
  }
  await consumeRateLimit(db, `form:${submission.clientIp}`, PUBLIC_FORM_LIMIT);

  switch (submission.intent) {
    case "intro": {
      const input = validate(introSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      const result = await submitIntro(db, services.mailLinks, submission.projectId, input.data, submission.visitor);
      services.mail.wake();
      services.webhooks.wake();
      return { message: INTRO_SENT_MESSAGE, blurb: result.blurb, wallChanged: false };
    }
    case "subscribe": {
      const input = validate(subscribeSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      await subscribeToUpdates(db, services.mailLinks, submission.projectId, input.data, submission.visitor);
      services.mail.wake();
      services.webhooks.wake();
      return { message: SUBSCRIBED_MESSAGE, wallChanged: false };
    }
    case "signal": {
      const input = validate(signalSchema, submission.values);
      if (!input.ok) throw new DomainError("invalid_input", input.formError, input.fieldErrors);
      const result = await recordSignal(db, services.mailLinks, submission.projectId, input.data, submission.visitor, qrCodeIdOf(submission));
      services.mail.wake();
      services.webhooks.wake();
      await services.events.publish({ projectId: result.projectId, kind: "wall" }).catch((error: unknown) => {
        services.logger.error({ err: error }, "could not publish wall event");
      });
      return { message: SIGNAL_RECORDED_MESSAGE, wallChanged: true };
    }
  }
}

/** The `?qr=` value as a QR code id, or null: anything a QR code id cannot be attributes nothing. */
function qrCodeIdOf(submission: VisitorSubmission): string | null {
  const value = submission.qrCodeId;
  return value && value.length <= 64 && isStorableText(value) ? value : null;
}

function successMessage(intent: VisitorIntent): string {
  return intent === "intro" ? INTRO_SENT_MESSAGE : intent === "subscribe" ? SUBSCRIBED_MESSAGE : SIGNAL_RECORDED_MESSAGE;
}
