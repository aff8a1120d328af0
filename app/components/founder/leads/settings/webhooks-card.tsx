import { Check, Copy, KeyRound, LoaderCircle, Webhook } from "lucide-react";
import { useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { bareInputClass, fieldControl, FieldError, FormAlert, labelClass } from "~/components/ui/form-fields";
import { useCopy } from "~/components/ui/use-copy";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { VERIFY_SIGNATURE_SNIPPET, webhookEndpointSchema } from "~/modules/webhooks/webhook-form";
import type { WebhookEndpointView } from "~/modules/webhooks/webhooks.server";
import type { SettingsResult } from "./settings-result";
import { EndpointItem } from "./webhook-endpoint-item";

/** Adding a webhook (its signing secret shown once), the founder's webhooks, and how to verify a delivery. */
export function WebhooksCard({ action, webhooks, now, documentResult }: { action: string; webhooks: WebhookEndpointView[]; now: Date; documentResult?: SettingsResult | undefined }) {
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
            {...fieldControl(endpoint)}
            type="url"
            inputMode="url"
            required={endpoint.required}
            maxLength={endpoint.maxLength}
            placeholder="https://hooks.example.com/pitchqr"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
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
