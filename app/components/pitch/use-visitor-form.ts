import { useRef, useState, type FormEvent } from "react";
import { useFetcher, useSearchParams } from "react-router";
import type { VisitorActionResult, VisitorIntent } from "~/modules/contacts/visitor-form-rules";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useSettledResult } from "~/components/ui/use-settled-result";
import { announceRefusal, errorsOfAnswer, refuseBeforeSending, type ShownErrors } from "~/browser/visitor-answers";

type Success = Extract<VisitorActionResult, { ok: true }>;

/**
 * One of the pitch page's forms, posted with a fetcher to the page's own action.
 * - Before sending, the visitor forms' shared check runs in the browser (`refuseBeforeSending`, as the anonymous
 *   page's module does); a failure stops the submission and shows the messages under the fields, the first (in
 *   the order the fields appear) also as the form's error.
 * - The server's answer: a failure shows its messages the same way and as an error toast; a success calls
 *   `onSuccess` once.
 * - Without JavaScript the same form posts normally; a failed post comes back as the route's `actionData`.
 */
export function useVisitorForm({
  intent,
  actionData,
  onSuccess,
}: {
  intent: VisitorIntent;
  actionData: VisitorActionResult | undefined;
  onSuccess?: (result: Success) => void;
}) {
  const fetcher = useFetcher<VisitorActionResult>();
  const hydrated = useHydrated();
  const [searchParams] = useSearchParams();
  const [clientErrors, setClientErrors] = useState<ShownErrors | null>(null);
  const sentForm = useRef<HTMLFormElement | null>(null);
  const busy = fetcher.state !== "idle";

  const serverResult = fetcher.data ?? (actionData?.intent === intent ? actionData : undefined);
  const serverErrors = !busy && serverResult && !serverResult.ok ? errorsOfAnswer(intent, serverResult) : null;
  const errors = clientErrors ?? serverErrors;

  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => {
    if (result.ok) onSuccess?.(result);
    else announceRefusal(intent, errorsOfAnswer(intent, result), sentForm.current);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    sentForm.current = event.currentTarget;
    const refused = refuseBeforeSending(intent, event.currentTarget);
    if (refused) event.preventDefault();
    setClientErrors(refused);
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
