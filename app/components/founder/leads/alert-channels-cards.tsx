import { BellRing, LoaderCircle, MessageSquare, Smartphone, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { bareInputClass, fieldControl, FieldError, FormAlert, labelClass } from "~/components/ui/form-fields";
import { useProjectAllows } from "~/components/founder/use-project-role";
import { ALERT_KIND_LABELS, ALERT_KINDS, alertChannelsSchema, slackUrlSchema, type AlertChannels, type AlertKind } from "~/modules/founder-alerts/alert-channel-form";
import { PUSH_WORKER_PATH, PUSH_WORKER_SCOPE } from "~/modules/founder-alerts/push-worker";
import type { FormResult } from "~/modules/forms/form-result";
import { SaveButton, useSettingsForm } from "./settings/settings-form";

export type PushDeviceView = { id: string; device: string; endpoint: string };

const KIND_FIELDS: Record<AlertKind, { push: keyof AlertChannels; slack: keyof AlertChannels }> = {
  intro: { push: "pushIntro", slack: "slackIntro" },
  signal: { push: "pushSignal", slack: "slackSignal" },
  follow: { push: "pushFollow", slack: "slackFollow" },
  reading: { push: "pushReading", slack: "slackReading" },
};

/** "Chrome on Android": how the founder tells their devices apart in the list. */
function deviceName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrome\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : "Browser";
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone/.test(userAgent)
      ? "iPhone"
      : /iPad/.test(userAgent)
        ? "iPad"
        : /Mac OS X/.test(userAgent)
          ? "Mac"
          : /Windows/.test(userAgent)
            ? "Windows"
            : /Linux/.test(userAgent)
              ? "Linux"
              : "this device";
  return `${browser} on ${system}`;
}

type DeviceState = "checking" | "unsupported" | "blocked" | "off" | "on";

const STATE_TEXT: Record<DeviceState, string> = {
  checking: "Checking this device…",
  unsupported: "This browser cannot show notifications. On an iPhone, add PitchQR to your Home Screen first (Share, then Add to Home Screen) and open it from there.",
  blocked: "Notifications are blocked for this site in this browser's settings. Allow them there, then come back.",
  off: "Notifications are off on this device.",
  on: "Notifications are on on this device.",
};

async function pushRegistration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(PUSH_WORKER_PATH, { scope: PUSH_WORKER_SCOPE });
  return navigator.serviceWorker.ready;
}

/**
 * Decision 56: notifications per device. Turning on asks the browser's permission, subscribes it to its push
 * service with the server's VAPID key and sends the subscription; turning off removes this device's only.
 */
export function PushDeviceCard({ action, vapidPublicKey, devices }: { action: string; vapidPublicKey: string; devices: PushDeviceView[] }) {
  const fetcher = useFetcher<FormResult>();
  const [state, setState] = useState<DeviceState>("checking");
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const handled = useRef<unknown>(null);

  useEffect(() => {
    const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
    (supported ? pushRegistration() : Promise.reject(new Error("no Web Push")))
      .then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => {
        setEndpoint(subscription?.endpoint ?? null);
        setState(subscription ? "on" : Notification.permission === "denied" ? "blocked" : "off");
      })
      .catch(() => setState("unsupported"));
  }, []);

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) return void toast.success(result.message);
    // The server refused this subscription: the browser's goes too, so the switch tells the truth.
    void pushRegistration()
      .then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => subscription?.unsubscribe())
      .finally(() => {
        setEndpoint(null);
        setState("off");
      });
  }, [fetcher.state, fetcher.data]);

  async function turnOn() {
    setProblem(null);
    setWorking(true);
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        setWorking(false);
        return void setState("blocked");
      }
      const registration = await pushRegistration();
      // A subscription made with an older key cannot be reused.
      await (await registration.pushManager.getSubscription())?.unsubscribe();
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: Uint8Array.from(atob(vapidPublicKey.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)) });
      const json = subscription.toJSON();
      setWorking(false);
      setEndpoint(subscription.endpoint);
      setState("on");
      void fetcher.submit(
        { intent: "push-on", endpoint: subscription.endpoint, p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "", device: deviceName(navigator.userAgent) },
        { method: "post", action },
      );
    } catch (error) {
      setWorking(false);
      setProblem(`This browser could not turn notifications on: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async function turnOff() {
    setProblem(null);
    setWorking(true);
    const registration = await pushRegistration();
    const subscription = await registration.pushManager.getSubscription();
    const leaving = subscription?.endpoint ?? endpoint;
    await subscription?.unsubscribe();
    setEndpoint(null);
    setState("off");
    setWorking(false);
    if (leaving) void fetcher.submit({ intent: "push-off", endpoint: leaving }, { method: "post", action });
  }

  const busy = working || fetcher.state !== "idle";
  const refused = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.formError : null;
  return (
    <SectionCard id="push-title" title="Notifications on your devices" icon={Smartphone} description="A notification on your phone the moment someone acts: tap it to open the lead.">
      <div className="space-y-3">
        <p data-push-state={state} role="status" className="text-sm text-slate-700">
          {STATE_TEXT[state]}
        </p>
        {state === "off" || state === "on" ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void (state === "on" ? turnOff() : turnOn())}
            className={`${state === "on" ? secondaryButtonClass : primaryButtonClass} min-h-11 w-full sm:w-auto`}
          >
            {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <BellRing aria-hidden className="size-4" />}
            {state === "on" ? "Turn off on this device" : "Turn on for this device"}
          </button>
        ) : null}
        <FormAlert message={problem ?? refused} />
        {devices.length ? (
          <div>
            <p className="text-xs font-medium text-slate-500">Devices with notifications on</p>
            <ul aria-label="Devices with notifications on" className="mt-1 divide-y divide-slate-100 rounded-xl border border-slate-200">
              {devices.map((device) => (
                <li key={device.id} className="flex items-center gap-2 px-3 py-2 text-sm text-slate-800">
                  <Smartphone aria-hidden className="size-4 text-slate-400" />
                  <span className="min-w-0 flex-1 truncate">{device.device}</span>
                  {device.endpoint === endpoint ? <span className="text-xs font-semibold text-brand-700">This device</span> : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </SectionCard>
  );
}

/** Per project and kind: which alerts are pushed to the devices above and posted to the project's Slack. */
export function AlertChannelsCard({ action, channels, slackUrl, documentResult }: { action: string; channels: AlertChannels; slackUrl: string | null; documentResult?: FormResult | undefined }) {
  // Slack is the project's, set by a role that may change its settings; pushes are each member's own (decision 61).
  const channelsShown = useProjectAllows("settings") ? (["push", "slack"] as const) : (["push"] as const);
  const { fetcher, busy, form, formError } = useSettingsForm<FormResult>(alertChannelsSchema, { id: "channels", lastResult: (posted) => posted ?? documentResult });
  return (
    <SectionCard id="channels-title" title="What to send where" icon={BellRing} description="For this project: what your devices and your Slack hear about.">
      <fetcher.Form method="post" action={action} {...form} className="space-y-4">
        <input type="hidden" name="intent" value="channels" />
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="text-xs text-slate-500">
              <th className="py-1 font-medium">Alert</th>
              <th className="w-20 py-1 text-center font-medium">Push</th>
              {channelsShown.length > 1 ? <th className="w-20 py-1 text-center font-medium">Slack</th> : null}
            </tr>
          </thead>
          <tbody>
            {ALERT_KINDS.map((kind) => (
              <tr key={kind} className="border-t border-slate-100">
                <th scope="row" className="py-1 font-medium text-slate-800">
                  {ALERT_KIND_LABELS[kind]}
                </th>
                {channelsShown.map((channel) => (
                  <td key={channel} className="text-center">
                    <label className="inline-flex size-11 cursor-pointer items-center justify-center">
                      <span className="sr-only">{`${ALERT_KIND_LABELS[kind]} by ${channel === "push" ? "push" : "Slack"}`}</span>
                      <input type="checkbox" name={KIND_FIELDS[kind][channel]} defaultChecked={channels[KIND_FIELDS[kind][channel]]} className="size-5 accent-brand-600" />
                    </label>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {slackUrl || channelsShown.length === 1 ? null : <p className="text-xs text-slate-500">Slack gets nothing until you add its webhook below.</p>}
        <FormAlert message={formError} />
        <SaveButton busy={busy} label="Save" className={`${primaryButtonClass} min-h-11 w-full sm:w-auto`} />
      </fetcher.Form>
    </SectionCard>
  );
}

/** The project's Slack incoming webhook: Slack's own text, with the same rules on where it points as webhooks. */
export function SlackCard({ action, slackUrl, documentResult }: { action: string; slackUrl: string | null; documentResult?: FormResult | undefined }) {
  const { fetcher, busy, form, field, formError } = useSettingsForm<FormResult>(slackUrlSchema, {
    id: "slack",
    lastResult: (posted) => (posted?.intent === "slack-url" ? posted : documentResult),
  });
  const url = field("slackUrl");
  return (
    <SectionCard id="slack-title" title="Slack" icon={MessageSquare} description="Post each alert to a Slack channel through an incoming webhook.">
      {slackUrl ? (
        <fetcher.Form method="post" action={action} className="mb-4 flex items-center gap-2 rounded-xl border border-slate-200 p-3">
          <input type="hidden" name="intent" value="remove-slack" />
          <p className="min-w-0 flex-1 truncate font-mono text-xs text-slate-800" title={slackUrl}>
            {slackUrl.replace(/\/[^/]+$/, "/…")}
          </p>
          <button type="submit" disabled={busy} aria-label="Remove the Slack webhook" className="inline-flex size-11 items-center justify-center rounded-lg text-slate-500 hover:bg-red-50 hover:text-red-700">
            <Trash2 aria-hidden className="size-4" />
          </button>
        </fetcher.Form>
      ) : null}
      <fetcher.Form method="post" action={action} {...form} aria-label="Slack webhook" className="space-y-2">
        <input type="hidden" name="intent" value="slack-url" />
        <label htmlFor={url.id} className={labelClass}>
          {slackUrl ? "Replace the webhook URL" : "Incoming-webhook URL"}
        </label>
        <input
          {...fieldControl(url)}
          type="url"
          inputMode="url"
          maxLength={url.maxLength}
          placeholder="https://hooks.slack.com/services/…"
          className={`${bareInputClass} w-full`}
        />
        <FieldError id={`${url.id}-error`} message={url.error} />
        <FormAlert message={formError} />
        <button type="submit" disabled={busy} className={`${secondaryButtonClass} min-h-11 w-full sm:w-auto`}>
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
          Save Slack webhook
        </button>
      </fetcher.Form>
    </SectionCard>
  );
}
