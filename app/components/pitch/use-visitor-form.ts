import { useState, type FormEvent } from "react";
import { useFetcher, useSearchParams } from "react-router";
import { toast } from "sonner";
import type { core } from "zod/mini";
import { validate } from "~/modules/forms/validation";
import { errorsByField, FAILURE_MESSAGES, readVisitorFormValues, type VisitorActionResult, type VisitorIntent } from "~/modules/contacts/visitor-form-rules";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useSettledResult } from "~/components/ui/use-settled-result";

export type FormErrors = { fieldErrors: Record<string, string>; formError: string };
type Success = Extract<VisitorActionResult, { ok: true }>;

/**
 * One of the pitch page's forms, posted with a fetcher to the page's own action.
 * - Before sending, the shared schema runs in the browser; a failure stops the submission and shows the
 *   messages under the fields, the first (in the order the fields appear) also as the form's error.
 * - The server's answer: a failure shows its messages the same way and as an error toast; a success calls
 *   `onSuccess` once.
 * - Without JavaScript the same form posts normally; a failed post comes back as the route's `actionData`.
 */
export function useVisitorForm<S extends core.$ZodType>({
  intent,
  schema,
  fieldOrder,
  actionData,
  onSuccess,
}: {
  intent: VisitorIntent;
  schema: S;
  fieldOrder: readonly string[];
  actionData: VisitorActionResult | undefined;
  onSuccess?: (result: Success) => void;
}) {
  const fetcher = useFetcher<VisitorActionResult>();
  const hydrated = useHydrated();
  const [searchParams] = useSearchParams();
  const [clientErrors, setClientErrors] = useState<FormErrors | null>(null);
  const busy = fetcher.state !== "idle";

  const serverResult = fetcher.data ?? (actionData?.intent === intent ? actionData : undefined);
  const serverErrors: FormErrors | null =
    !busy && serverResult && !serverResult.ok
      ? { fieldErrors: errorsByField(serverResult.fieldErrors ?? {}), formError: serverResult.formError || FAILURE_MESSAGES[intent] }
      : null;
  const errors = clientErrors ?? serverErrors;

  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => {
    if (result.ok) onSuccess?.(result);
    else toast.error(result.formError || FAILURE_MESSAGES[intent]);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const result = validate(schema, readVisitorFormValues(form));
    if (result.ok) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    const fieldErrors = errorsByField(result.fieldErrors);
    const first = fieldOrder.find((field) => fieldErrors[field]);
    setClientErrors({ fieldErrors, formError: first ? fieldErrors[first]! : result.formError });
    if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  // Posting to `?dialog={intent}` brings a visitor without JavaScript back to this dialog on failure.
  const action = new URLSearchParams(searchParams);
  action.set("dialog", intent);
  action.delete("sent");

  return {
    fetcher,
    busy,
    errors,
    hydrated,
    onSubmit,
    action: `?${action.toString()}`,
    fieldError: (field: string) => errors?.fieldErrors[field],
    /** What the visitor typed, when a post without JavaScript came back refused. */
    submitted: (field: string): string | undefined => {
      const value = !serverResult?.ok ? serverResult?.values?.[field] : undefined;
      return typeof value === "string" ? value : undefined;
    },
    submittedList: (field: string): string[] => {
      const value = !serverResult?.ok ? serverResult?.values?.[field] : undefined;
      return Array.isArray(value) ? value : [];
    },
  };
}
