import { ChartColumn, Eye, LoaderCircle, MailCheck } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { describedBy, FieldError, FormAlert, labelClass } from "~/components/ui/form-fields";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import type { FormResult } from "~/modules/forms/form-result";
import { MORNING_REPORT_CHOICES, MORNING_REPORT_LABELS, morningReportSchema } from "~/modules/reports/morning-report-form";
import type { MorningReportSchedule } from "~/modules/reports/morning-report-now.server";

/** '09:00 in Europe/Berlin': the hour the report goes out, on the owner's clock. */
export function scheduleText(schedule: MorningReportSchedule): string {
  return `${String(schedule.hour).padStart(2, "0")}:00 in ${schedule.timeZone}`;
}

/**
 * Decision 66: the report the owner and co-founders get the morning after a day with scans, and a week later; with
 * when it goes out, a preview of yesterday's, and a way to get it now (decision 88).
 */
export function MorningReportCard({
  projectId,
  enabled,
  schedule,
  documentResult,
}: {
  projectId: string;
  enabled: boolean;
  schedule: MorningReportSchedule;
  documentResult?: FormResult | undefined;
}) {
  const action = `/project/${projectId}/leads/settings`;
  const fetcher = useFetcher<FormResult>();
  const busy = fetcher.state !== "idle";
  const { form, field, formError } = useSchemaForm(morningReportSchema, {
    id: "morning-report",
    lastResult: fetcher.data ?? (documentResult?.intent === "morning-report" ? documentResult : undefined),
    busy,
    onResult: (settled) => (settled.ok ? toast.success(settled.message) : toast.error(settled.formError)),
  });
  const choice = field("morningReport");
  return (
    <SectionCard
      id="morning-report-title"
      title="Morning-after report"
      icon={ChartColumn}
      description="The morning after a day with scans, and again a week later: each code's funnel, who is waiting for an answer, the top signals and your contacts as CSV."
    >
      <p className="mb-4 text-sm text-slate-800">
        It goes out at <strong className="font-semibold">{scheduleText(schedule)}</strong>, the owner&apos;s clock, to the owner and co-founders.
      </p>
      <fetcher.Form method="post" action={action} {...form} className="space-y-5">
        <input type="hidden" name="intent" value="morning-report" />
        <fieldset id={choice.id} aria-describedby={describedBy(choice.error && `${choice.id}-error`)}>
          <legend className={labelClass}>Morning-after report for this project</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {MORNING_REPORT_CHOICES.map((value) => (
              <label
                key={value}
                className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2.5 text-sm font-medium text-slate-800 has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:text-brand-700"
              >
                <input type="radio" name={choice.name} value={value} defaultChecked={(value === "on") === enabled} data-error-slot={choice["data-error-slot"]} className="accent-brand-600" />
                {MORNING_REPORT_LABELS[value]}
              </label>
            ))}
          </div>
          <FieldError id={`${choice.id}-error`} message={choice.error} />
        </fieldset>
        <FormAlert message={formError} />
        <div className="flex justify-end">
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
            {busy ? "Saving..." : "Save report setting"}
          </button>
        </div>
      </fetcher.Form>
      <ReportNow projectId={projectId} documentResult={documentResult?.intent === "report-now" ? documentResult : undefined} />
    </SectionCard>
  );
}

/** 'Preview yesterday's report' (the same mail, in the app) and 'Send it to me now' (through the outbox). */
function ReportNow({ projectId, documentResult }: { projectId: string; documentResult?: FormResult | undefined }) {
  const fetcher = useFetcher<FormResult>();
  const busy = fetcher.state !== "idle";
  const result = busy ? undefined : (fetcher.data ?? documentResult);
  return (
    <div className="mt-5 border-t border-slate-200 pt-4">
      <fetcher.Form method="post" action={`/project/${projectId}/leads/settings`} className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <input type="hidden" name="intent" value="report-now" />
        <Link to={`/project/${projectId}/leads/report`} className={secondaryButtonClass}>
          <Eye aria-hidden className="size-4" />
          Preview yesterday&apos;s report
        </Link>
        <button type="submit" disabled={busy} className={secondaryButtonClass}>
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <MailCheck aria-hidden className="size-4" />}
          {busy ? "Sending..." : "Send it to me now"}
        </button>
      </fetcher.Form>
      {result ? (
        <p role="status" className={`mt-3 rounded-lg px-3 py-2 text-sm ring-1 ${result.ok ? "bg-emerald-50 text-emerald-900 ring-emerald-200" : "bg-red-50 text-red-900 ring-red-200"}`}>
          {result.ok ? result.message : result.formError}
        </p>
      ) : null}
    </div>
  );
}
