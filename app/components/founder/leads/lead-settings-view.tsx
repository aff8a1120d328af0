import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "~/components/ui/page-header";
import { useClock } from "~/components/ui/use-clock";
import type { QualifyingQuestion } from "~/modules/leads/inbox/qualifying-answer";
import type { LeadAlertSettings } from "~/modules/leads/inbox/lead-alert-form";
import type { MorningReportSchedule } from "~/modules/reports/morning-report-now.server";
import { SetupWarningBanner } from "../setup-warning-banner";
import type { OperatorBanner } from "~/modules/operator/operator-banner";
import type { AlertChannelSettings } from "~/modules/founder-alerts/founder-alerts.server";
import { useProjectAllows } from "~/components/founder/use-project-role";
import { MorningReportCard } from "./morning-report-card";
import { AlertChannelsCard, PushDeviceCard, SlackCard, type PushDeviceView } from "./alert-channels-cards";
import type { WebhookEndpointView } from "~/modules/webhooks/webhooks.server";
import { AlertsCard } from "./settings/alerts-card";
import { QuestionCard } from "./settings/question-card";
import type { SettingsResult } from "./settings/settings-result";
import { TestMailCard } from "./settings/test-mail-card";
import { WebhooksCard } from "./settings/webhooks-card";

export type LeadSettingsViewProps = {
  project: { id: string; title: string; slug: string };
  alerts: LeadAlertSettings;
  /** Whether the project sends the morning-after report (decision 66). */
  morningReport: boolean;
  /** When it goes out (the owner's hour and zone), for the members it goes to; null for the others. */
  reportSchedule: MorningReportSchedule | null;
  webhooks: WebhookEndpointView[];
  question: QualifyingQuestion | null;
  /** Push and Slack (decision 56): this project's switches, the founder's devices, and the key browsers subscribe with. */
  channels: AlertChannelSettings;
  pushDevices: PushDeviceView[];
  vapidPublicKey: string;
  now: string;
  actionData?: SettingsResult | undefined;
  /** Mail that reaches nobody (no SMTP_URL, or a sender at localhost). */
  setupBanner?: OperatorBanner | null;
};

/**
 * What the founder asks everyone who writes (the question), how they hear about new leads (push,
 * Slack, alert e-mails) and where else leads go (webhooks).
 */
export function LeadSettingsView({ project, alerts, morningReport, reportSchedule, webhooks, question, channels, pushDevices, vapidPublicKey, now, actionData, setupBanner = null }: LeadSettingsViewProps) {
  const clock = useClock(now);
  const action = `/project/${project.id}/leads/settings`;
  const projectWide = useProjectAllows("settings");
  return (
    <main className="mx-auto max-w-3xl px-4 pt-6 pb-16 sm:pt-8">
      <PageHeader
        before={
          <Link
            to={`/project/${project.id}/leads`}
            className="-ml-2 mb-3 inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
          >
            <ArrowLeft aria-hidden className="size-4" />
            Back to Leads
          </Link>
        }
        title="Lead settings"
        subtitle={project.title}
      />
      <div className="space-y-5">
        <SetupWarningBanner banner={setupBanner} />
        <PushDeviceCard action={action} vapidPublicKey={vapidPublicKey} devices={pushDevices} />
        <AlertChannelsCard action={action} channels={channels.channels} slackUrl={channels.slackUrl} documentResult={actionData?.intent === "channels" ? actionData : undefined} />
        {projectWide ? <SlackCard action={action} slackUrl={channels.slackUrl} documentResult={actionData?.intent === "slack-url" ? actionData : undefined} /> : null}
        {projectWide ? <QuestionCard action={action} question={question} documentResult={actionData?.intent === "question" ? actionData : undefined} /> : null}
        <AlertsCard action={action} alerts={alerts} documentResult={actionData?.intent === "alerts" ? actionData : undefined} />
        {projectWide && reportSchedule ? (
          <MorningReportCard
            projectId={project.id}
            enabled={morningReport}
            schedule={reportSchedule}
            documentResult={actionData?.intent === "morning-report" || actionData?.intent === "report-now" ? actionData : undefined}
          />
        ) : null}
        {projectWide ? <TestMailCard action={action} documentResult={actionData?.intent === "test-mail" ? actionData : undefined} /> : null}
        {projectWide ? (
          <WebhooksCard
            action={action}
            webhooks={webhooks}
            now={clock}
            documentResult={actionData?.intent === "add-webhook" || actionData?.intent === "delete-webhook" ? actionData : undefined}
          />
        ) : null}
      </div>
    </main>
  );
}
