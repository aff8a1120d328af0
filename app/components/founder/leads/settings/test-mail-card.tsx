import { LoaderCircle, Send } from "lucide-react";
import { useFetcher } from "react-router";
import { secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-fields";
import type { TestMailResult } from "~/modules/mail/test-mail";
import type { SettingsResult } from "./settings-result";

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
 * One message to the founder's own address, sent at once (not through the outbox, decision 40), and what
 * actually happened to it: accepted by the SMTP server, refused with its reply, no answer, or kept on disk.
 */
export function TestMailCard({ action, documentResult }: { action: string; documentResult?: SettingsResult | undefined }) {
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
