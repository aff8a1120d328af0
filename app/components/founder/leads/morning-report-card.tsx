import { ChartColumn, Eye, LoaderCircle, MailCheck } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-fields";
import type { FormResult } from "~/modules/forms/form-result";
import { MORNING_REPORT_CHOICES, MORNING_REPORT_LABELS, morningReportSchema } from "~/modules/reports/morning-report-form";
import type { MorningReportSchedule } from "~/modules/reports/morning-report-now.server";
import { ChoiceFieldset, SaveButton, useSettingsForm } from "./settings/settings-form";

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
  const { fetcher, busy, form, field, formError } = useSettingsForm<FormResult>(morningReportSchema, {
    id: "morning-report",
    lastResult: (posted) => posted ?? (documentResult?.intent === "morning-report" ? documentResult : undefined),
  });
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
        <ChoiceFieldset
          field={field("morningReport")}
          legend="Morning-after report for this project"
          choices={MORNING_REPORT_CHOICES}
          labels={MORNING_REPORT_LABELS}
          isChosen={(value) => (value === "on") === enabled}
          columns="sm:grid-cols-2"
        />
        <FormAlert message={formError} />
        <SaveButton busy={busy} label="Save report setting" className={primaryButtonClass} />
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
