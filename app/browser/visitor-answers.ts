import { checkVisitorForm, CONFIRMATION_TOAST_MS, confirmationText, errorsByField, FAILURE_MESSAGES, FIELD_ORDER, readVisitorFormValues, type VisitorActionResult, type VisitorIntent } from "~/modules/contacts/visitor-form-rules";
import type { QualifyingQuestion } from "~/modules/leads/inbox/qualifying-answer";
import { showToast } from "./toasts";

/** What a refused form shows: each field's message under it, and the form's message above the fields. */
export type ShownErrors = { fieldErrors: Record<string, string>; formError: string };

/**
 * A visitor form checked in the browser before it is sent, with the rules its server schema applies (the first
 * message per field; the first field's, in the order the fields appear, is the form's message). Null when it may
 * be sent; otherwise the messages, and focus is on the first field with one.
 */
export function refuseBeforeSending(intent: VisitorIntent, form: HTMLFormElement): ShownErrors | null {
  const check = checkVisitorForm(intent, readVisitorFormValues(form), questionOfForm(form));
  if (check.ok) return null;
  focusFirstError(intent, form, check.fieldErrors);
  return { fieldErrors: check.fieldErrors, formError: check.formError };
}

/** The project's qualifying question, as the form carries it on its answer field; null when it asks none. */
function questionOfForm(form: HTMLFormElement): QualifyingQuestion | null {
  const carrier = form.querySelector<HTMLElement>("[data-qualifying-question]");
  if (!carrier?.dataset.qualifyingQuestion) return null;
  try {
    return JSON.parse(carrier.dataset.qualifyingQuestion) as QualifyingQuestion;
  } catch {
    return null;
  }
}

/** Focus on the first field with a message, in the order the fields appear (after a refusal here or by the server). */
export function focusFirstError(intent: VisitorIntent, form: HTMLFormElement, fieldErrors: Record<string, string>): void {
  const first = FIELD_ORDER[intent].find((field) => fieldErrors[field]);
  if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
}

/** The messages of a refused answer from the server (its own, or the spec's failure message when it gave none). */
export function errorsOfAnswer(intent: VisitorIntent, result: Extract<VisitorActionResult, { ok: false }>): ShownErrors {
  return { fieldErrors: errorsByField(result.fieldErrors ?? {}), formError: result.formError || FAILURE_MESSAGES[intent] };
}

/**
 * A refused answer from the server: said in an error toast too (the form may be scrolled out of view), and focus
 * on the first field it refused, if the form is still there.
 */
export function announceRefusal(intent: VisitorIntent, errors: ShownErrors, form: HTMLFormElement | null): void {
  showToast("error", errors.formError);
  if (form?.isConnected) focusFirstError(intent, form, errors.fieldErrors);
}

/** A success said in a toast with what happens next; a request kept offline and sent later says so first. */
export function toastConfirmation(intent: VisitorIntent, result: Extract<VisitorActionResult, { ok: true }>, options: { sentLater?: boolean } = {}): void {
  showToast("success", confirmationText(intent, result, options), CONFIRMATION_TOAST_MS);
}
