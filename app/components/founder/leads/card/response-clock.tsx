import { useFetcher } from "react-router";
import { RecordIdField } from "~/components/ui/form-fields";
import { toast } from "sonner";
import { secondaryButtonClass } from "~/components/ui/buttons";
import { useSettledResult } from "~/components/ui/use-settled-result";
import type { LeadView } from "~/modules/leads/inbox/lead-views.server";
import { formatWaitDuration } from "~/modules/time/relative-time";
import type { TriageResult } from "./triage-result";

/**
 * A person only met in person waits for nobody, so they have no clock (decision 84) until the founder says they owe
 * them a follow-up: 'Awaiting my follow-up' starts it.
 */
export function MetOnlyClock({ projectId, lead, canTriage }: { projectId: string; lead: LeadView; canTriage: boolean }) {
  const fetcher = useFetcher<TriageResult>();
  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => {
    if (!result.ok) toast.error(result.formError);
  });
  return (
    <fetcher.Form method="post" action={`/project/${projectId}/leads`} className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <input type="hidden" name="intent" value="awaiting" />
      <RecordIdField name="leadId" id={lead.id} />
      <span>Met in person: not waiting for an answer.</span>
      {canTriage ? (
        <button type="submit" disabled={fetcher.state !== "idle"} className={`${secondaryButtonClass} py-1.5 text-xs`}>
          Awaiting my follow-up
        </button>
      ) : null}
    </fetcher.Form>
  );
}

/** The response clock: how long the lead has waited for the founder's first answer, or how long it took. */
export function ResponseClock({ lead, awaitingSince, now }: { lead: LeadView; awaitingSince: string; now: Date }) {
  const waitedFrom = Date.parse(awaitingSince);
  if (lead.firstResponseAt) {
    return (
      <span className="rounded-full bg-emerald-50 px-2 py-0.5 font-medium text-emerald-800">
        Answered in {formatWaitDuration(Date.parse(lead.firstResponseAt) - waitedFrom)}
      </span>
    );
  }
  return (
    <span suppressHydrationWarning className="rounded-full bg-amber-50 px-2 py-0.5 font-semibold text-amber-900">
      Waiting {formatWaitDuration(now.getTime() - waitedFrom)}
    </span>
  );
}
