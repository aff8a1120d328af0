import { useFetcher } from "react-router";
import { RecordIdField } from "~/components/ui/form-fields";
import { toast } from "sonner";
import { useSettledResult } from "~/components/ui/use-settled-result";
import { LEAD_TEMPERATURE_LABELS, LEAD_TEMPERATURES } from "~/modules/formats/lead-triage";
import type { LeadView } from "~/modules/leads/inbox/lead-views.server";
import type { TriageResult } from "./triage-result";

const TEMPERATURE_TONES = {
  hot: "aria-pressed:bg-rose-600 aria-pressed:text-white aria-pressed:ring-rose-600",
  warm: "aria-pressed:bg-amber-500 aria-pressed:text-slate-950 aria-pressed:ring-amber-500",
  cold: "aria-pressed:bg-sky-700 aria-pressed:text-white aria-pressed:ring-sky-700",
} as const;

/**
 * Hot, warm or cold in one tap: three submit buttons, so it works by keyboard and without
 * JavaScript; the chosen one is pressed, and tapping it again clears it. Shown at once, before the server answers.
 */
export function TemperatureButtons({ projectId, lead }: { projectId: string; lead: LeadView }) {
  const fetcher = useFetcher<TriageResult>();
  const sent = fetcher.formData?.get("temperature");
  const current = typeof sent === "string" ? (sent === "none" ? null : sent) : lead.temperature;
  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => {
    if (!result.ok) toast.error(result.formError);
  });
  return (
    <fetcher.Form method="post" action={`/project/${projectId}/leads`} aria-label={`How warm ${lead.name} is`} className="mt-3 flex items-center gap-2">
      <input type="hidden" name="intent" value="temperature" />
      <RecordIdField name="leadId" id={lead.id} />
      <span className="text-xs font-medium text-slate-600">Temperature</span>
      <div className="grid flex-1 grid-cols-3 gap-1.5 sm:flex-none">
        {LEAD_TEMPERATURES.map((value) => (
          <button
            key={value}
            type="submit"
            name="temperature"
            value={current === value ? "none" : value}
            aria-pressed={current === value}
            className={`min-h-11 rounded-lg bg-white px-3 text-sm font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 sm:min-h-9 sm:min-w-20 ${TEMPERATURE_TONES[value]}`}
          >
            {LEAD_TEMPERATURE_LABELS[value]}
          </button>
        ))}
      </div>
    </fetcher.Form>
  );
}
