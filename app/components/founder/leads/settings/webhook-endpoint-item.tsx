import { CirclePause, LoaderCircle, Play, Send, Trash2 } from "lucide-react";
import { RecordIdField } from "~/components/ui/form-fields";
import { Form, useFetcher } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { useSettledResult } from "~/components/ui/use-settled-result";
import { formatFounderDateTime } from "~/modules/time/founder-dates";
import { formatActivityTime } from "~/modules/time/relative-time";
import type { WebhookDeliveryView, WebhookEndpointView } from "~/modules/webhooks/webhooks.server";
import type { SettingsResult } from "./settings-result";

const DELIVERY_TONES = { sent: "bg-emerald-50 text-emerald-700", pending: "bg-amber-50 text-amber-800", failed: "bg-red-50 text-red-700" } as const;

/** One webhook in the list: its URL and Delete, a test event or Resume, and its latest deliveries. */
export function EndpointItem({ action, endpoint, now }: { action: string; endpoint: WebhookEndpointView; now: Date }) {
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
 * 'Send a test event': one signed `webhook.test` POST, tried once; the toast says what the endpoint
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
