import {
  checkVisitorForm,
  CONFIRMATION_TOAST_MS,
  confirmationText,
  errorsByField,
  FAILURE_MESSAGES,
  FIELD_ORDER,
  INTRO_SENT_MESSAGE,
  readVisitorFormValues,
  SIGNAL_RECORDED_MESSAGE,
  SUBSCRIBED_MESSAGE,
  type VisitorActionResult,
  type VisitorIntent,
} from "~/modules/contacts/visitor-form-rules";
import { showToast } from "./toasts";

/** What a refused form shows: each field's message under it, and the form's message above the fields. */
export type ShownErrors = { fieldErrors: Record<string, string>; formError: string };

/**
 * A visitor form checked in the browser before it is sent, with the rules its server schema applies (the first
 * message per field; the first field's, in the order the fields appear, is the form's message). Null when it may
 * be sent; otherwise the messages, and focus is on the first field with one.
 */
export function refuseBeforeSending(intent: VisitorIntent, form: HTMLFormElement): ShownErrors | null {
  const check = checkVisitorForm(intent, readVisitorFormValues(form));
  if (check.ok) return null;
  const first = FIELD_ORDER[intent].find((field) => check.fieldErrors[field]);
  if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  return { fieldErrors: check.fieldErrors, formError: check.formError };
}

/** The messages of a refused answer from the server (its own, or the spec's failure message when it gave none). */
export function errorsOfAnswer(intent: VisitorIntent, result: Extract<VisitorActionResult, { ok: false }>): ShownErrors {
  return { fieldErrors: errorsByField(result.fieldErrors ?? {}), formError: result.formError || FAILURE_MESSAGES[intent] };
}

/** A refused answer is also said in an error toast: the form may be scrolled out of view. */
export function toastRefusal(errors: ShownErrors): void {
  showToast("error", errors.formError);
}

const SUCCESS_MESSAGES: Record<VisitorIntent, string> = { intro: INTRO_SENT_MESSAGE, subscribe: SUBSCRIBED_MESSAGE, signal: SIGNAL_RECORDED_MESSAGE };

/** A success said in a toast with what happens next; a request kept offline and sent later says so first. */
export function toastConfirmation(intent: VisitorIntent, result: Extract<VisitorActionResult, { ok: true }>, options: { sentLater?: boolean } = {}): void {
  showToast("success", confirmationText(intent, { message: result.message || SUCCESS_MESSAGES[intent], next: result.next }, options), CONFIRMATION_TOAST_MS);
}
