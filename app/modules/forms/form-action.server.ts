import { data } from "react-router";
import type { core } from "zod/mini";
import { DomainError, domainErrorHeaders, isDomainError } from "~/modules/errors.server";
import type { Logger } from "~/modules/logging/logger.server";
import type { FormFailure, FormResult, FormSuccess, SubmittedValues } from "./form-result";
import { formToObject, validate } from "./validation";

export const GENERIC_FAILURE_MESSAGE = "Something went wrong. Please try again.";

/** What an intent's domain call answers: the success to show (message and extras), or a Response (a redirect). */
type Answer<Extra extends object> = ({ message: string; id?: string } & Extra) | Response;

/**
 * One intent of a form: its schema, how the body is read for it (default: each field as a string), and the one
 * domain call it makes. A form that has no schema here validates inside its domain call (the visitor forms,
 * whose honeypot and limits come before the schema) and throws `invalid_input` like any other domain failure.
 */
export type FormIntent<Extra extends object, Input> = {
  schema?: core.$ZodType<Input>;
  read?: (form: FormData) => unknown;
  run: (input: Input, form: FormData) => Promise<Answer<Extra>>;
  /** Shown for an unexpected failure (it is logged); defaults to GENERIC_FAILURE_MESSAGE. */
  failureMessage?: string;
  /** The record a failure is about (a lead's id), read from the form, so only its card shows the error. */
  subjectOf?: (form: FormData) => string | undefined;
  /** Echo what was submitted on failure, so a page without JavaScript refills the form. */
  echo?: (form: FormData) => SubmittedValues;
};

/**
 * The usual intent: the checked input goes to one domain call, and the success is worked out from the input and what
 * the call returned (or is the same each time).
 */
export function callIntent<Input, Result, Extra extends object = object>(
  schema: core.$ZodType<Input> | undefined,
  failureMessage: string,
  call: (input: Input, form: FormData) => Promise<Result>,
  answer: NoInfer<Answer<Extra> | ((input: Input, result: Result) => Answer<Extra>)>,
): FormIntent<Extra, Input> {
  return {
    schema,
    failureMessage,
    run: async (input, form) => {
      const result = await call(input, form);
      return typeof answer === "function" ? answer(input, result) : answer;
    },
  };
}

export type FormAction<Intent extends string, Extra extends object> = {
  form: FormData;
  logger: Logger;
  /** The posted `intent` field, already narrowed to the form's intents. */
  intent: Intent;
  // Each intent has its own input type; the map is typed loosely so one object can hold them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  intents: Record<Intent, FormIntent<Extra, any>>;
};

export type FormOutcome<Intent extends string, Extra extends object> =
  | { kind: "response"; response: Response }
  | { kind: "result"; result: FormResult<Intent, Extra>; status: number; headers?: HeadersInit };

/**
 * Validates the submitted form with the intent's schema, calls its domain function, and turns what happens into
 * a FormResult: a DomainError answers its message, field messages and status; anything else is logged and
 * answers the intent's failure message with 500.
 */
export async function runFormAction<Intent extends string, Extra extends object>(action: FormAction<Intent, Extra>): Promise<FormOutcome<Intent, Extra>> {
  const { form, intent, logger } = action;
  const handler = Object.hasOwn(action.intents, intent) ? action.intents[intent] : undefined;
  if (!handler) return { kind: "result", status: 400, result: { intent, ok: false, formError: UNKNOWN_ACTION_MESSAGE, fieldErrors: {} } };
  const fail = (failure: Omit<FormFailure<Intent>, "intent" | "ok">, status: number, headers?: HeadersInit): FormOutcome<Intent, Extra> => {
    const subject = handler.subjectOf?.(form);
    const values = handler.echo?.(form);
    return {
      kind: "result",
      status,
      headers,
      result: { intent, ok: false, ...failure, ...(subject === undefined ? {} : { id: subject }), ...(values ? { values } : {}) },
    };
  };
  try {
    const raw = handler.read ? handler.read(form) : formToObject(form);
    let input: unknown = raw;
    if (handler.schema) {
      const checked = validate(handler.schema, raw);
      if (!checked.ok) throw new DomainError("invalid_input", checked.formError, checked.fieldErrors);
      input = checked.data;
    }
    const answer = await handler.run(input, form);
    if (answer instanceof Response) return { kind: "response", response: answer };
    return { kind: "result", status: 200, result: { intent, ok: true, ...answer } as FormSuccess<Intent, Extra> };
  } catch (error) {
    if (error instanceof Response) throw error;
    if (isDomainError(error)) return fail({ formError: error.message, fieldErrors: error.fieldErrors }, error.status, domainErrorHeaders(error));
    logger.error({ err: error, intent }, "form action failed");
    return fail({ formError: handler.failureMessage ?? GENERIC_FAILURE_MESSAGE, fieldErrors: {} }, 500);
  }
}

/** A route action's answer: `runFormAction`'s result as route data with its status, or its redirect. */
export async function handleFormAction<Intent extends string, Extra extends object = object>(action: FormAction<Intent, Extra>) {
  const outcome = await runFormAction(action);
  if (outcome.kind === "response") return outcome.response;
  return data(outcome.result, { status: outcome.status, headers: outcome.headers });
}

/**
 * The posted `intent`; a form without an intent field (or an empty one) is the first, its default. Any other value
 * is passed on as posted, and `runFormAction`, which finds no handler for it, answers 400 without running anything.
 */
export function intentOf<Intent extends string>(form: FormData, intents: readonly [Intent, ...Intent[]]): Intent {
  const posted = form.get("intent");
  return typeof posted === "string" && posted !== "" ? (posted as Intent) : intents[0];
}

/** A posted field read as it came, for an intent without a schema: an absent field is empty. */
export function postedText(form: FormData, name: string): string {
  return String(form.get(name) ?? "");
}

export const UNKNOWN_ACTION_MESSAGE = "This form cannot do that. Reload the page and try again.";
