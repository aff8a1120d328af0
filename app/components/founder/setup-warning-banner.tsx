import { AlertTriangle } from "lucide-react";
import { useFetcher } from "react-router";
import type { OperatorBanner } from "~/modules/operator/operator-banner";

/**
 * How the operator set the app up, where it breaks something the owner counts on (decision 88): QR codes that will
 * not open on phones (PUBLIC_URL) or mail that reaches nobody (SMTP_URL and MAIL_FROM). One banner per screen, each
 * warning naming the setting and the fix, and a Dismiss that hides it in this browser for a day; it posts a plain
 * form, so it works before (or without) JavaScript too.
 */
export function SetupWarningBanner({ banner, className = "" }: { banner: OperatorBanner | null; className?: string }) {
  const fetcher = useFetcher();
  if (!banner || fetcher.state !== "idle") return null;
  return (
    <section
      aria-label="Server set-up"
      className={`flex items-start gap-3 rounded-xl bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-amber-300 print:hidden sm:p-4 ${className}`}
    >
      <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600" />
      <div className="min-w-0 flex-1 space-y-2">
        {banner.warnings.map((warning) => (
          <div key={warning.kind} role="alert" aria-label={warning.title}>
            <p className="font-semibold">{warning.title}</p>
            <p className="mt-0.5 break-words">{warning.message}</p>
          </div>
        ))}
        <fetcher.Form method="post" action="/operator-banner/dismiss" preventScrollReset>
          {banner.warnings.map((warning) => (
            <input key={warning.kind} type="hidden" name="kind" value={warning.kind} />
          ))}
          <input type="hidden" name="returnTo" value={banner.returnTo} />
          <button
            type="submit"
            className="inline-flex min-h-10 items-center rounded-lg border border-amber-300 bg-white px-3 py-1.5 font-semibold text-amber-950 shadow-sm hover:bg-amber-100"
          >
            Dismiss for a day
          </button>
        </fetcher.Form>
      </div>
    </section>
  );
}
