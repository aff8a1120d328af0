import { MailCheck } from "lucide-react";
import { useFetcher } from "react-router";
import { CONFIRM_BANNER_MESSAGE } from "~/modules/auth/email-confirmation-form";
import type { FormResult } from "~/modules/forms/form-result";

/** The screens of a signed-in founder: the banner shows there, not on pitch pages or the account pages. */
const FOUNDER_SCREENS = /^\/(?:dashboard|my-projects|project)(?:\/|$)/;

/**
 * Founder screens show the banner, except a lead opened from an alert (`?lead=`), which is the first thing on its
 * screen: the banner is back on the next one.
 */
export function showsConfirmBanner(pathname: string, search: string): boolean {
  return FOUNDER_SCREENS.test(pathname) && !new URLSearchParams(search).has("lead");
}

/**
 * While the account's address is not confirmed (decision 83), founder screens say so under the header, with a new
 * link a button away. The button posts to the confirmation page's action, which also answers it without JavaScript.
 */
export function ConfirmEmailBanner({ email }: { email: string }) {
  const fetcher = useFetcher<FormResult<"send" | "confirm">>();
  const busy = fetcher.state !== "idle";
  const result = fetcher.data;
  return (
    <section aria-label="E-mail address not confirmed" className="border-b border-amber-200 bg-amber-50 print:hidden">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 text-sm text-amber-950">
        <MailCheck aria-hidden className="size-5 shrink-0 text-amber-700" />
        <p className="min-w-0 flex-1">
          <span className="font-semibold">{CONFIRM_BANNER_MESSAGE}.</span> We sent a link to <span className="break-all">{email}</span>.
        </p>
        <fetcher.Form method="post" action="/auth/confirm-email">
          <input type="hidden" name="intent" value="send" />
          <button
            type="submit"
            disabled={busy}
            className="inline-flex min-h-10 items-center rounded-lg border border-amber-300 bg-white px-3 py-1.5 font-semibold text-amber-950 shadow-sm hover:bg-amber-100 disabled:opacity-60"
          >
            {busy ? "Sending..." : "Send it again"}
          </button>
        </fetcher.Form>
        {result ? (
          <p role="status" className="basis-full font-medium sm:pl-9">
            {result.ok ? result.message : result.formError}
          </p>
        ) : null}
      </div>
    </section>
  );
}
