import { BellRing } from "lucide-react";
import { primaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-fields";
import { ALERT_MODE_LABELS, ALERT_MODES, leadAlertSettingsSchema, type LeadAlertSettings } from "~/modules/leads/inbox/lead-alert-form";
import type { SettingsResult } from "./settings-result";
import { ChoiceFieldset, SaveButton, useSettingsForm } from "./settings-form";

/** Which intro requests and interest signals reach the founder's inbox by e-mail, one choice each. */
export function AlertsCard({ action, alerts, documentResult }: { action: string; alerts: LeadAlertSettings; documentResult?: SettingsResult | undefined }) {
  const { fetcher, busy, form, field, formError } = useSettingsForm<SettingsResult>(leadAlertSettingsSchema, { id: "alerts", lastResult: (posted) => posted ?? documentResult });
  return (
    <SectionCard id="alerts-title" title="E-mail alerts" icon={BellRing} description="What reaches your inbox when someone acts on your pitch page.">
      <fetcher.Form method="post" action={action} {...form} className="space-y-5">
        <input type="hidden" name="intent" value="alerts" />
        <ChoiceFieldset field={field("introAlerts")} legend="Intro requests" choices={ALERT_MODES} labels={ALERT_MODE_LABELS} isChosen={(mode) => mode === alerts.introAlerts} columns="sm:grid-cols-3" />
        <ChoiceFieldset field={field("signalAlerts")} legend="Interest signals" choices={ALERT_MODES} labels={ALERT_MODE_LABELS} isChosen={(mode) => mode === alerts.signalAlerts} columns="sm:grid-cols-3" />
        <p className="text-xs text-slate-500">The daily summary goes out once a day at the hour your operator set for digests. Subscriptions never send alerts.</p>
        <FormAlert message={formError} />
        <SaveButton busy={busy} label="Save alerts" className={primaryButtonClass} />
      </fetcher.Form>
    </SectionCard>
  );
}
