import { BellRing, LoaderCircle } from "lucide-react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { describedBy, FieldError, FormAlert, labelClass } from "~/components/ui/form-fields";
import { useSchemaForm, type FieldProps } from "~/components/ui/use-schema-form";
import type { AlertMode } from "~/db/schema";
import { ALERT_MODE_LABELS, ALERT_MODES, leadAlertSettingsSchema, type LeadAlertSettings } from "~/modules/leads/inbox/lead-alert-form";
import type { SettingsResult } from "./settings-result";

/** Which intro requests and interest signals reach the founder's inbox by e-mail, one choice each. */
export function AlertsCard({ action, alerts, documentResult }: { action: string; alerts: LeadAlertSettings; documentResult?: SettingsResult | undefined }) {
  const fetcher = useFetcher<SettingsResult>();
  const busy = fetcher.state !== "idle";
  const { form, field, formError } = useSchemaForm(leadAlertSettingsSchema, {
    id: "alerts",
    lastResult: fetcher.data ?? documentResult,
    busy,
    onResult: (settled) => (settled.ok ? toast.success(settled.message) : toast.error(settled.formError)),
  });
  return (
    <SectionCard id="alerts-title" title="E-mail alerts" icon={BellRing} description="What reaches your inbox when someone acts on your pitch page.">
      <fetcher.Form method="post" action={action} {...form} className="space-y-5">
        <input type="hidden" name="intent" value="alerts" />
        <AlertChoice field={field("introAlerts")} legend="Intro requests" value={alerts.introAlerts} />
        <AlertChoice field={field("signalAlerts")} legend="Interest signals" value={alerts.signalAlerts} />
        <p className="text-xs text-slate-500">The daily summary goes out once a day at the hour your operator set for digests. Subscriptions never send alerts.</p>
        <FormAlert message={formError} />
        <div className="flex justify-end">
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
            {busy ? "Saving..." : "Save alerts"}
          </button>
        </div>
      </fetcher.Form>
    </SectionCard>
  );
}

function AlertChoice({ field, legend, value }: { field: FieldProps; legend: string; value: AlertMode }) {
  return (
    <fieldset id={field.id} aria-describedby={describedBy(field.error && `${field.id}-error`)}>
      <legend className={labelClass}>{legend}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-3">
        {ALERT_MODES.map((mode) => (
          <label
            key={mode}
            className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2.5 text-sm font-medium text-slate-800 has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:text-brand-700"
          >
            <input type="radio" name={field.name} value={mode} defaultChecked={mode === value} data-error-slot={field["data-error-slot"]} className="accent-brand-600" />
            {ALERT_MODE_LABELS[mode]}
          </label>
        ))}
      </div>
      <FieldError id={`${field.id}-error`} message={field.error} />
    </fieldset>
  );
}
