import { type FormEvent, useState } from "react";
import type { core } from "zod/mini";
import { constraintsOf, fieldNamesOf } from "~/modules/forms/constraints";
import type { FormResult } from "~/modules/forms/form-result";
import { formToObject, validate } from "~/modules/forms/validation";
import { useSettledResult } from "./use-settled-result";

/** Where messages are kept: by slot (a field's path, or `form` for the message about the whole form). */
export type FormErrors = Record<string, string>;

export const FORM_SLOT = "form";

type SchemaFormOptions<Result extends FormResult> = {
  /** Every field id starts with it: `qr` gives `qr-label`, `qr-eventTag`; `project` gives `project-tiers-1-rangeMax`. */
  id: string;
  /** The server's answer to this form's last post (`fetcher.data`, `actionData`). */
  lastResult?: Result | null | undefined;
  /** A post is under way: the last answer's messages stay hidden until it settles. */
  busy?: boolean;
  /** How the form is read for the schema: what the server's intent reads (default: each field as a string). */
  read?: (form: FormData) => unknown;
  /** Fields posted in hidden inputs: nothing on screen to show their message under, so it is the form's. */
  hidden?: readonly string[];
  /** Where a message path is shown (a list row the server saw at another index); default: the path itself. */
  slotOf?: (path: string) => string;
  /** Called once per settled answer, after focus moved to its first message (a toast, emptying the form). */
  onResult?: (result: Result) => void;
};

/** What an input needs from the form: its id and name, its message, and the limits its schema sets. */
export type FieldProps = {
  id: string;
  name: string;
  error: string | undefined;
  required?: true;
  maxLength?: number;
  minLength?: number;
  "data-error-slot": string;
};

/** `field` of `useSchemaForm`, for the components a form is split into. */
export type FieldOf = (slot: string) => FieldProps;

const FOCUSABLE = "input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled]), button:not([disabled])";

/** `tiers.1.rangeMax` → `project-tiers-1-rangeMax`. */
export const slotDomId = (formId: string, slot: string) => `${formId}-${slot.replaceAll(".", "-")}`;

/** The schema path behind a slot: list indexes dropped (`tiers.1.rangeMax` → `tiers.rangeMax`). */
const schemaPathOf = (slot: string) =>
  slot
    .split(".")
    .filter((part) => !/^\d+$/.test(part))
    .join(".");

type SlotRules = {
  /** The schema's fields in the order it declares them (`fieldNamesOf`). */
  order: readonly string[];
  /** Fields posted in hidden inputs. */
  hidden?: readonly string[];
  slotOf?: (path: string) => string;
};

/**
 * A refusal's messages by the slot that shows them: the first message per slot, slots in the schema's field order
 * (the order the founder reads the form). A message about a field not on screen (hidden, or one the schema does
 * not name) is the form's; a refusal with no field message shows its `formError` as the form's.
 */
export function messagesBySlot(fieldErrors: Readonly<FormErrors>, formError: string, { order, hidden = [], slotOf = (path) => path }: SlotRules): FormErrors {
  const slots: FormErrors = {};
  for (const [path, message] of Object.entries(fieldErrors)) {
    const head = path.split(".")[0] ?? "";
    const slot = order.includes(head) && !hidden.includes(head) ? slotOf(path) : FORM_SLOT;
    if (!(slot in slots)) slots[slot] = message;
  }
  if (!Object.keys(slots).length) return { [FORM_SLOT]: formError };
  const rank = (slot: string) => {
    const index = order.indexOf(slot.split(".")[0] ?? "");
    return index === -1 ? order.length : index;
  };
  return Object.fromEntries(Object.entries(slots).sort(([a], [b]) => rank(a) - rank(b)));
}

/**
 * One form of the founder's screens, driven by its zod schema (the one the server's intent runs), in the shape of
 * Conform's `useForm`: `form` goes on the `<form>`, `field(path)` on each input. It
 * - gives each input its id, name, message and the schema's limits (`required`, `maxLength`, `minLength`);
 * - on submit runs the schema in the browser: a refusal stays in the browser, its messages go under the fields in
 *   the schema's order and the first field gets focus;
 * - shows the server's refusal the same way once the post settles, and keeps it (through re-renders and
 *   revalidations) until the founder changes that field or submits again;
 * - puts a message that belongs to no field (a limit, a failure) in `formError`, for the form's `FormAlert`.
 */
export function useSchemaForm<Result extends FormResult = FormResult>(schema: core.$ZodType, options: SchemaFormOptions<Result>) {
  const { id, lastResult, busy = false, read = formToObject, hidden, slotOf } = options;
  const rules: SlotRules = { order: fieldNamesOf(schema), hidden, slotOf };
  const errorsOf = (fieldErrors: FormErrors, formError: string) => messagesBySlot(fieldErrors, formError, rules);
  const serverErrors = (result: Result | null | undefined): FormErrors => (result && !result.ok ? errorsOf(result.fieldErrors ?? {}, result.formError) : {});

  // The messages on screen: the browser's own, or the server's last answer with the fields changed since dropped.
  const [errors, setErrors] = useState<FormErrors>(() => serverErrors(busy ? null : lastResult));
  const [shownResult, setShownResult] = useState(busy ? null : lastResult);
  if (!busy && lastResult !== shownResult) {
    setShownResult(lastResult);
    setErrors(serverErrors(lastResult));
  }

  const focus = (slot: string | undefined) => {
    if (!slot || slot === FORM_SLOT) return;
    const element = document.getElementById(slotDomId(id, slot));
    const target = element?.matches(FOCUSABLE)
      ? element
      : (element?.querySelector<HTMLElement>("input[type=radio]:checked") ?? element?.querySelector<HTMLElement>(FOCUSABLE));
    target?.focus();
  };

  useSettledResult(lastResult, !busy, (result) => {
    if (!result.ok) focus(Object.keys(serverErrors(result))[0]);
    options.onResult?.(result);
  });

  /** Drops the messages of the slots `drop` picks (a field the founder changed, a list whose rows moved). */
  const clearErrors = (drop: (slot: string) => boolean) =>
    setErrors((current) => (Object.keys(current).some(drop) ? Object.fromEntries(Object.entries(current).filter(([slot]) => !drop(slot))) : current));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (busy) {
      event.preventDefault();
      return;
    }
    const checked = validate(schema, read(new FormData(event.currentTarget)));
    if (checked.ok) {
      setErrors({});
      return;
    }
    event.preventDefault();
    const next = errorsOf(checked.fieldErrors, checked.formError);
    setErrors(next);
    focus(Object.keys(next)[0]);
  }

  function onInput(event: FormEvent<HTMLFormElement>) {
    const slot = event.target instanceof HTMLElement ? event.target.dataset.errorSlot : undefined;
    if (slot) clearErrors((key) => key === slot);
  }

  function field(slot: string): FieldProps {
    return {
      id: slotDomId(id, slot),
      name: slot,
      error: errors[slot],
      ...constraintsOf(schema, schemaPathOf(slot)),
      "data-error-slot": slot,
    };
  }

  return {
    /** Spread on the `<form>` (or `fetcher.Form`). */
    form: { noValidate: true, onSubmit, onInput },
    field,
    /** Every message on screen by slot, in the schema's order. */
    errors,
    /** The message about the whole form (nothing is wrong with one field): for `FormAlert`. */
    formError: errors[FORM_SLOT],
    clearErrors,
  };
}
