import type { FieldErrors } from "./validation";

/** What was submitted, echoed on failure so a page rendered without JavaScript can refill its form. */
export type SubmittedValues = Record<string, string | string[]>;

export type FormSuccess<Intent extends string = string, Extra extends object = object> = { intent: Intent; ok: true; message: string; id?: string } & Extra;

export type FormFailure<Intent extends string = string> = {
  intent: Intent;
  ok: false;
  formError: string;
  fieldErrors: FieldErrors;
  values?: SubmittedValues;
  /** The record the form was about (a lead's card), so only that card shows the error. */
  id?: string;
};

/**
 * What every form action answers, with or without JavaScript: a message to show, or the messages per field
 * and one for the form. `Extra` is what a success carries besides (an intro's blurb, a new webhook's secret).
 */
export type FormResult<Intent extends string = string, Extra extends object = object> = FormSuccess<Intent, Extra> | FormFailure<Intent>;
