import { BookOpen } from "lucide-react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { RecordIdField } from "~/components/ui/form-fields";
import { useSettledResult } from "~/components/ui/use-settled-result";
import { leadReadingText, readingTimeText, suggestsHot, type LeadReading } from "~/modules/deck-reading/reading-text";
import type { LeadView } from "~/modules/leads/inbox/lead-views.server";
import type { TriageResult } from "./triage-result";

/**
 * What the lead read of the deck on the page now: one line of figures and a strip with a cell per page, the darker
 * the more of their time it had (an empty cell: not read). When they read most of it and are not hot yet, a one-tap
 * suggestion to mark them hot (the founder's choice: nothing changes by itself).
 */
export function LeadReadingSummary({ projectId, lead, reading, canTriage }: { projectId: string; lead: LeadView; reading: LeadReading; canTriage: boolean }) {
  const longest = Math.max(...reading.perPage, 1);
  return (
    <section aria-label={`What ${lead.name} read of the deck`} className="mt-3 rounded-lg bg-slate-50 px-3 py-2" data-lead-reading>
      <p className="flex items-start gap-1.5 text-sm font-medium text-slate-800">
        <BookOpen aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-600" />
        <span>{leadReadingText(reading)}</span>
      </p>
      <ol aria-label="Time on each page" className="mt-2 flex gap-0.5">
        {reading.perPage.map((ms, index) => {
          const label = `Page ${index + 1}: ${ms > 0 ? readingTimeText(ms) : "not read"}`;
          return (
            <li
              key={index}
              title={label}
              aria-label={label}
              className="h-4 min-w-1 flex-1 rounded-sm ring-1 ring-slate-300 ring-inset"
              style={ms > 0 ? { backgroundColor: `color-mix(in srgb, var(--color-brand-600) ${Math.round(20 + (80 * ms) / longest)}%, white)` } : undefined}
            />
          );
        })}
      </ol>
      {canTriage && lead.temperature !== "hot" && suggestsHot(reading) ? <MarkHotSuggestion projectId={projectId} lead={lead} /> : null}
    </section>
  );
}

/** "Read most of the deck: mark hot?": one tap posts the card's own temperature intent with Hot. */
function MarkHotSuggestion({ projectId, lead }: { projectId: string; lead: LeadView }) {
  const fetcher = useFetcher<TriageResult>();
  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => {
    if (!result.ok) toast.error(result.formError);
  });
  // Gone as soon as it is tapped; the card's temperature shows Hot once the inbox reloads.
  if (fetcher.state !== "idle" || fetcher.data?.ok) return null;
  return (
    <fetcher.Form method="post" action={`/project/${projectId}/leads`} className="mt-2 flex flex-wrap items-center gap-2" data-hot-suggestion>
      <input type="hidden" name="intent" value="temperature" />
      <RecordIdField name="leadId" id={lead.id} />
      <span className="text-sm text-slate-700">Read most of the deck: mark them hot?</span>
      <button
        type="submit"
        name="temperature"
        value="hot"
        className="min-h-11 rounded-lg bg-rose-600 px-3 text-sm font-semibold text-white hover:bg-rose-700 focus-visible:ring-2 focus-visible:ring-rose-400 focus-visible:outline-none sm:min-h-9"
      >
        Mark hot
      </button>
    </fetcher.Form>
  );
}
