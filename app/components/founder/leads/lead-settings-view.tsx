import { ArrowLeft, BellRing, Check, CirclePause, Copy, KeyRound, ListChecks, LoaderCircle, Play, Send, Trash2, Webhook } from "lucide-react";
import { useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { bareInputClass, CheckboxField, describedBy, FieldError, FormAlert, labelClass, TextField, RecordIdField } from "~/components/ui/form-fields";
import { QUESTION_KINDS, QUESTION_LIMITS, type QualifyingQuestion } from "~/modules/leads/qualifying-answer";
import { qualifyingQuestionSchema, readQuestionForm } from "~/modules/leads/qualifying-question";
import { PageHeader } from "~/components/ui/page-header";
import { useClock, useFounderTimeZone } from "~/components/ui/use-clock";
import { useCopy } from "~/components/ui/use-copy";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useSchemaForm, type FieldProps } from "~/components/ui/use-schema-form";
import type { AlertMode } from "~/db/schema";
import type { FormResult } from "~/modules/forms/form-result";
import { ALERT_MODE_LABELS, ALERT_MODES, leadAlertSettingsSchema, type LeadAlertSettings } from "~/modules/leads/lead-alert-form";
import type { TestMailResult } from "~/modules/mail/test-mail";
import type { MorningReportSchedule } from "~/modules/reports/morning-report-now.server";
import { formatActivityTime } from "~/modules/time/relative-time";
import { VERIFY_SIGNATURE_SNIPPET, webhookEndpointSchema } from "~/modules/webhooks/webhook-form";
import { SetupWarningBanner } from "../setup-warning-banner";
import type { OperatorBanner } from "~/modules/operator/operator-banner";
import { formatFounderDateTime } from "~/modules/formats/founder-dates";
import { useSettledResult } from "~/components/ui/use-settled-result";
import type { AlertChannelSettings } from "~/modules/founder-alerts/founder-alerts.server";
import { useProjectAllows } from "~/components/founder/use-project-role";
import { MorningReportCard } from "./morning-report-card";
import { AlertChannelsCard, PushDeviceCard, SlackCard, type PushDeviceView } from "./alert-channels-cards";
import type { WebhookDeliveryView, WebhookEndpointView, WebhookTestOutcome } from "~/modules/webhooks/webhooks.server";

type SettingsResult = FormResult & { secret?: string; testMail?: TestMailResult; testWebhook?: WebhookTestOutcome };

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
 * Issue 12 and 28: what the founder asks everyone who writes (the question), how they hear about new leads (push,
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

function AlertsCard({ action, alerts, documentResult }: { action: string; alerts: LeadAlertSettings; documentResult?: SettingsResult | undefined }) {
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

const TEST_MAIL_TONES: Record<TestMailResult["outcome"], string> = {
  delivered: "bg-emerald-50 text-emerald-900 ring-emerald-200",
  refused: "bg-red-50 text-red-900 ring-red-200",
  unreachable: "bg-red-50 text-red-900 ring-red-200",
  kept: "bg-amber-50 text-amber-950 ring-amber-300",
};

const TEST_MAIL_DETAIL_LABELS: Record<TestMailResult["outcome"], string> = {
  delivered: "The server answered",
  refused: "The server replied",
  unreachable: "What happened",
  kept: "Kept as",
};

/**
 * Issue 23: one message to the founder's own address, sent at once (not through the outbox, decision 40), and what
 * actually happened to it: accepted by the SMTP server, refused with its reply, no answer, or kept on disk.
 */
function TestMailCard({ action, documentResult }: { action: string; documentResult?: SettingsResult | undefined }) {
  const fetcher = useFetcher<SettingsResult>();
  const busy = fetcher.state !== "idle";
  const result = busy ? undefined : (fetcher.data ?? documentResult);
  const sent = result?.ok ? result.testMail : undefined;
  return (
    <SectionCard id="test-mail-title" title="Test e-mail" icon={Send} description="Check that alerts reach you: one message to the address you sign in with.">
      <fetcher.Form method="post" action={action} className="space-y-4">
        <input type="hidden" name="intent" value="test-mail" />
        <button type="submit" disabled={busy} className={`${secondaryButtonClass} w-full sm:w-auto`}>
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <Send aria-hidden className="size-4" />}
          {busy ? "Sending..." : "Send me a test e-mail"}
        </button>
      </fetcher.Form>
      <div aria-live="polite" className="mt-4 empty:mt-0">
        {sent ? (
          <div data-test-mail-outcome={sent.outcome} className={`rounded-xl p-4 text-sm ring-1 ${TEST_MAIL_TONES[sent.outcome]}`}>
            <p className="font-semibold">{result?.ok ? result.message : null}</p>
            <p className="mt-2 text-xs font-medium opacity-80">{TEST_MAIL_DETAIL_LABELS[sent.outcome]}:</p>
            <code className="mt-0.5 block font-mono text-xs break-all whitespace-pre-wrap">{sent.detail}</code>
          </div>
        ) : result && !result.ok ? (
          <FormAlert message={result.formError} />
        ) : null}
      </div>
    </SectionCard>
  );
}

/**
 * Issue 28 item 4: one question for everyone who requests an intro or signals interest, free text or one of up to
 * six answers, optional or required. Clearing the text removes it.
 */
function QuestionCard({ action, question, documentResult }: { action: string; question: QualifyingQuestion | null; documentResult?: SettingsResult | undefined }) {
  const fetcher = useFetcher<SettingsResult>();
  const busy = fetcher.state !== "idle";
  const [kind, setKind] = useState<(typeof QUESTION_KINDS)[number]>(question?.options.length ? "choice" : "text");
  const hydrated = useHydrated();
  const { form, field, formError } = useSchemaForm(qualifyingQuestionSchema, {
    id: "question",
    lastResult: fetcher.data ?? documentResult,
    busy,
    read: readQuestionForm,
    onResult: (settled) => (settled.ok ? toast.success(settled.message) : toast.error(settled.formError)),
  });
  const prompt = field("prompt");
  const kindField = field("kind");
  const optionsError = field("options").error;
  return (
    <SectionCard
      id="question-title"
      title="Your question"
      icon={ListChecks}
      description="Ask everyone who requests an intro or signals interest one thing you want to know first. Their answer shows on the lead."
    >
      <fetcher.Form method="post" action={action} {...form} className="space-y-5">
        <input type="hidden" name="intent" value="question" />
        <TextField
          {...prompt}
          label="Question"
          optional
          hint="Leave it empty to ask nothing."
          defaultValue={question?.prompt ?? ""}
          placeholder="What stage do you invest in?"
        />
        <fieldset id={kindField.id}>
          <legend className={labelClass}>Answers</legend>
          <div className="mt-2 grid grid-cols-2 gap-2">
            {QUESTION_KINDS.map((value) => (
              <label
                key={value}
                className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2.5 text-sm font-medium text-slate-800 has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:text-brand-700"
              >
                <input
                  type="radio"
                  name={kindField.name}
                  value={value}
                  checked={kind === value}
                  onChange={() => setKind(value)}
                  data-error-slot={kindField["data-error-slot"]}
                  className="accent-brand-600"
                />
                {value === "text" ? "Free text" : "Choose one"}
              </label>
            ))}
          </div>
          <FieldError id={`${kindField.id}-error`} message={kindField.error} />
        </fieldset>
        {/* Without JavaScript the answers stay on screen, used only for 'Choose one'. */}
        {kind === "choice" || !hydrated ? (
          <fieldset id={field("options").id} aria-describedby={describedBy(optionsError && `${field("options").id}-error`)}>
            <legend className={labelClass}>
              Answers to choose from <span className="font-normal text-slate-500">(2 to {QUESTION_LIMITS.options})</span>
            </legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {Array.from({ length: QUESTION_LIMITS.options }, (_, index) => {
                const option = field(`options.${index}`);
                return (
                  <div key={index}>
                    <input
                      id={option.id}
                      name="options"
                      maxLength={option.maxLength}
                      data-error-slot={option["data-error-slot"]}
                      defaultValue={question?.options[index] ?? ""}
                      aria-label={`Answer ${index + 1}`}
                      placeholder={index < 2 ? ["Pre-seed", "Seed"][index] : undefined}
                      aria-invalid={option.error ? true : undefined}
                      aria-describedby={describedBy(option.error && `${option.id}-error`)}
                      className={bareInputClass}
                    />
                    <FieldError id={`${option.id}-error`} message={option.error} />
                  </div>
                );
              })}
            </div>
            <FieldError id={`${field("options").id}-error`} message={optionsError} />
          </fieldset>
        ) : null}
        <CheckboxField
          id="question-required"
          name="required"
          value="on"
          defaultChecked={question?.required ?? false}
          label="Required"
          hint="Without an answer, the form is not sent. Keep it optional to lose no one."
        />
        <FormAlert message={formError} />
        <div className="flex justify-end">
          <button type="submit" disabled={busy} className={`${primaryButtonClass} w-full sm:w-auto`}>
            {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
            {busy ? "Saving..." : "Save question"}
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

function WebhooksCard({ action, webhooks, now, documentResult }: { action: string; webhooks: WebhookEndpointView[]; now: Date; documentResult?: SettingsResult | undefined }) {
  const fetcher = useFetcher<SettingsResult>();
  const busy = fetcher.state !== "idle";
  const [url, setUrl] = useState("");
  const result = fetcher.data ?? documentResult;
  const added = result?.ok && result.intent === "add-webhook" && result.secret ? result : null;
  const { form, field, formError } = useSchemaForm(webhookEndpointSchema, {
    id: "webhook",
    lastResult: result?.intent === "add-webhook" ? result : undefined,
    busy,
    onResult: (settled) => {
      if (!settled.ok) return void toast.error(settled.formError);
      setUrl("");
      toast.success(settled.message);
    },
  });
  const endpoint = field("url");

  return (
    <SectionCard
      id="webhooks-title"
      title="Webhooks"
      icon={Webhook}
      description="Send every new intro, subscription and signal to your CRM, Zapier or Slack as signed JSON, as it happens."
    >
      {added ? <SecretOnce secret={added.secret!} /> : null}
      <fetcher.Form method="post" action={action} {...form} aria-label="Add a webhook" className="space-y-2">
        <input type="hidden" name="intent" value="add-webhook" />
        <label htmlFor={endpoint.id} className={labelClass}>
          Endpoint URL
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id={endpoint.id}
            name={endpoint.name}
            type="url"
            inputMode="url"
            required={endpoint.required}
            maxLength={endpoint.maxLength}
            data-error-slot={endpoint["data-error-slot"]}
            placeholder="https://hooks.example.com/pitchqr"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            aria-invalid={endpoint.error ? true : undefined}
            aria-describedby={endpoint.error ? `${endpoint.id}-error` : `${endpoint.id}-hint`}
            className={`${bareInputClass} sm:flex-1`}
          />
          <button type="submit" disabled={busy} className={`${primaryButtonClass} shrink-0`}>
            {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
            {busy ? "Adding..." : "Add webhook"}
          </button>
        </div>
        <FormAlert message={formError} />
        {endpoint.error ? (
          <FieldError id={`${endpoint.id}-error`} message={endpoint.error} />
        ) : (
          <p id={`${endpoint.id}-hint`} className="text-xs text-slate-500">
            https only, on the public internet. Each delivery is retried with backoff until your endpoint answers 2xx, so one
            can arrive twice: deduplicate on the <code className="whitespace-nowrap">X-PitchQR-Delivery</code> header, the same on every retry.
          </p>
        )}
      </fetcher.Form>

      {webhooks.length ? (
        <ul aria-label="Your webhooks" className="mt-5 space-y-4">
          {webhooks.map((endpoint) => (
            <EndpointItem key={endpoint.id} action={action} endpoint={endpoint} now={now} />
          ))}
        </ul>
      ) : (
        <p className="mt-5 text-sm text-slate-600">No webhooks yet.</p>
      )}

      <details className="mt-5 rounded-xl border border-slate-200 bg-slate-50 p-3 text-sm">
        <summary className="cursor-pointer font-semibold text-slate-800">Verify a signature</summary>
        <p className="mt-2 text-slate-600">
          Each POST carries <code>X-PitchQR-Timestamp</code> and <code>X-PitchQR-Signature</code>: <code>sha256=</code> and the hex HMAC-SHA256 of{" "}
          <code>timestamp.body</code> with your secret. <code>X-PitchQR-Delivery</code> is unique per delivery and the same on its retries (deduplicate on it); the body&rsquo;s{" "}
          <code>id</code> per event. The same POST also carries the Standard Webhooks headers <code>webhook-id</code>, <code>webhook-timestamp</code> and{" "}
          <code>webhook-signature</code>, so a stock verifier (the <code>standardwebhooks</code> libraries) checks it with your secret as it is.
        </p>
        <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">{VERIFY_SIGNATURE_SNIPPET}</pre>
      </details>
    </SectionCard>
  );
}

function SecretOnce({ secret }: { secret: string }) {
  const { copied, copy } = useCopy();
  return (
    <div role="status" className="mb-5 rounded-xl border border-amber-300 bg-amber-50 p-4">
      <p className="flex items-center gap-2 text-sm font-semibold text-amber-900">
        <KeyRound aria-hidden className="size-4" />
        Signing secret, shown this once
      </p>
      <p className="mt-1 text-xs text-amber-900/80">Copy it into your receiver now. To get a new one, delete the webhook and add it again.</p>
      <div className="mt-2 flex items-center gap-2">
        <code data-testid="webhook-secret" className="min-w-0 flex-1 rounded-md bg-white px-2 py-1.5 font-mono text-xs break-all text-slate-900 ring-1 ring-amber-200">
          {secret}
        </code>
        <button type="button" onClick={() => void copy(secret, "secret")} className={`${secondaryButtonClass} shrink-0 px-3 py-1.5`}>
          {copied ? <Check aria-hidden className="size-4 text-emerald-600" /> : <Copy aria-hidden className="size-4" />}
          {copied ? "Copied!" : "Copy"}
        </button>
      </div>
    </div>
  );
}

const DELIVERY_TONES = { sent: "bg-emerald-50 text-emerald-700", pending: "bg-amber-50 text-amber-800", failed: "bg-red-50 text-red-700" } as const;

function EndpointItem({ action, endpoint, now }: { action: string; endpoint: WebhookEndpointView; now: Date }) {
  return (
    <li className="rounded-xl border border-slate-200 p-3">
      <div className="flex items-start gap-2">
        <p className="min-w-0 flex-1 font-mono text-sm break-all text-slate-900">{endpoint.url}</p>
        <Form
          method="post"
          action={action}
          onSubmit={(event) => {
            if (!confirm("Delete this webhook? Its queued deliveries are dropped.")) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="delete-webhook" />
          <RecordIdField name="endpointId" id={endpoint.id} />
          <button type="submit" aria-label={`Delete webhook ${endpoint.url}`} className="inline-flex size-9 items-center justify-center rounded-lg text-slate-500 hover:bg-red-50 hover:text-red-700">
            <Trash2 aria-hidden className="size-4" />
          </button>
        </Form>
      </div>
      {endpoint.pausedAt ? <PausedNotice action={action} endpoint={endpoint} /> : <TestEventButton action={action} endpoint={endpoint} />}
      {endpoint.deliveries.length ? (
        <table className="mt-2 w-full text-left text-xs">
          <caption className="sr-only">Latest deliveries</caption>
          <thead className="text-slate-500">
            <tr>
              <th className="py-1 font-medium">Event</th>
              <th className="py-1 font-medium">Status</th>
              <th className="hidden py-1 font-medium sm:table-cell">Attempts</th>
              <th className="py-1 text-right font-medium">When</th>
            </tr>
          </thead>
          <tbody>
            {endpoint.deliveries.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} now={now} />
            ))}
          </tbody>
        </table>
      ) : (
        <p className="mt-2 text-xs text-slate-500">No deliveries yet: the next intro, subscription or signal is sent here.</p>
      )}
    </li>
  );
}

/**
 * 'Send a test event' (issue 28 item 6): one signed `webhook.test` POST, tried once; the toast says what the endpoint
 * answered, and the delivery joins the list below.
 */
function TestEventButton({ action, endpoint }: { action: string; endpoint: WebhookEndpointView }) {
  const fetcher = useFetcher<SettingsResult>();
  const busy = fetcher.state !== "idle";
  useSettledResult(fetcher.data, !busy, (result) => {
    if (!result.ok) return void toast.error(result.formError);
    const outcome = result.testWebhook;
    if (outcome?.delivered) toast.success(result.message, { description: outcome.detail });
    else toast.error(result.message, { description: outcome?.detail });
  });
  return (
    <fetcher.Form method="post" action={action} className="mt-2">
      <input type="hidden" name="intent" value="test-webhook" />
      <RecordIdField name="endpointId" id={endpoint.id} />
      <button type="submit" disabled={busy} aria-label={`Send a test event to ${endpoint.url}`} className={`${secondaryButtonClass} w-full px-3 py-2 text-sm sm:w-auto`}>
        {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <Send aria-hidden className="size-4" />}
        {busy ? "Sending..." : "Send a test event"}
      </button>
    </fetcher.Form>
  );
}

/** An endpoint paused after three days of failures: when, and Resume, which sends what waited for it. */
function PausedNotice({ action, endpoint }: { action: string; endpoint: WebhookEndpointView }) {
  const timeZone = useFounderTimeZone();
  const fetcher = useFetcher<SettingsResult>();
  const busy = fetcher.state !== "idle";
  useSettledResult(fetcher.data, !busy, (result) => (result.ok ? toast.success(result.message) : toast.error(result.formError)));
  return (
    <div role="status" className="mt-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      <p className="flex items-center gap-2 font-semibold">
        <CirclePause aria-hidden className="size-4 shrink-0" />
        Paused {formatFounderDateTime(endpoint.pausedAt!, timeZone)}
      </p>
      <p className="mt-1 text-xs text-red-900/80">
        Every delivery had failed for three days{endpoint.failingSince ? ` (since ${formatFounderDateTime(endpoint.failingSince, timeZone)})` : ""}. New events
        wait for it; resume it once your endpoint answers again.
      </p>
      <fetcher.Form method="post" action={action} className="mt-2">
        <input type="hidden" name="intent" value="resume-webhook" />
        <RecordIdField name="endpointId" id={endpoint.id} />
        <button type="submit" disabled={busy} aria-label={`Resume webhook ${endpoint.url}`} className={`${primaryButtonClass} w-full px-3 py-2 text-sm sm:w-auto`}>
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <Play aria-hidden className="size-4" />}
          {busy ? "Resuming..." : "Resume"}
        </button>
      </fetcher.Form>
    </div>
  );
}

function DeliveryRow({ delivery, now }: { delivery: WebhookDeliveryView; now: Date }) {
  const timeZone = useFounderTimeZone();
  const label = delivery.status === "sent" ? "Delivered" : delivery.status === "failed" ? "Failed" : delivery.attempts ? "Retrying" : "Queued";
  return (
    <tr className="border-t border-slate-100 align-top">
      <td className="py-1.5 pr-2 font-mono text-slate-800">{delivery.eventType}</td>
      <td className="py-1.5 pr-2">
        <span className={`rounded-full px-2 py-0.5 font-semibold whitespace-nowrap ${DELIVERY_TONES[delivery.status]}`}>
          {label}
          {delivery.responseStatus ? ` · ${delivery.responseStatus}` : ""}
        </span>
        {/* 'answered 500' repeats the badge; a refusal, a timeout or a redirect says more. */}
        {delivery.lastError && delivery.status !== "sent" && delivery.lastError !== `answered ${delivery.responseStatus}` ? (
          <span className="mt-1 block break-words text-slate-500">{delivery.lastError}</span>
        ) : null}
      </td>
      <td className="hidden py-1.5 pr-2 text-slate-600 tabular-nums sm:table-cell">{delivery.attempts}</td>
      <td className="py-1.5 text-right whitespace-nowrap text-slate-500">
        <time dateTime={delivery.createdAt} suppressHydrationWarning>
          {formatActivityTime(delivery.createdAt, now, timeZone)}
        </time>
      </td>
    </tr>
  );
}
