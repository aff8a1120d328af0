import { LoaderCircle, PhoneCall, Reply } from "lucide-react";
import { RecordIdField } from "~/components/ui/form-fields";
import { Link, useFetcher } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { useSettledResult } from "~/components/ui/use-settled-result";
import type { LeadView } from "~/modules/leads/inbox/lead-views.server";
import type { TriageResult } from "./triage-result";

/**
 * Reply (the composer, decision 57) and 'Log a call' (one tap, a line in the history that counts as the response),
 * large enough for a thumb.
 */
export function FollowUpActions({ projectId, lead }: { projectId: string; lead: LeadView }) {
  const fetcher = useFetcher<TriageResult>();
  const busy = fetcher.state !== "idle";
  useSettledResult(fetcher.data, !busy, (result) => (result.ok ? toast.success(`${lead.name}: call logged`) : toast.error(result.formError)));
  return (
    <div className="mt-3 grid grid-cols-2 gap-2 sm:flex sm:justify-start">
      {/* Met without an e-mail: nothing to reply to until one is added (decision 92). */}
      {lead.hasEmail ? (
        <Link to={`/project/${projectId}/leads/${lead.id}/reply`} className={`${primaryButtonClass} min-h-11 sm:min-h-9`} aria-label={`Reply to ${lead.name}`}>
          <Reply aria-hidden className="size-4" />
          Reply
        </Link>
      ) : null}
      <fetcher.Form method="post" action={`/project/${projectId}/leads`} aria-label={`Log a call with ${lead.name}`} className="contents">
        <input type="hidden" name="intent" value="call" />
        <RecordIdField name="leadId" id={lead.id} />
        <button type="submit" disabled={busy} className={`${secondaryButtonClass} min-h-11 sm:min-h-9`}>
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <PhoneCall aria-hidden className="size-4" />}
          Log a call
        </button>
      </fetcher.Form>
    </div>
  );
}
