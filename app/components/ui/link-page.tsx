import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { primaryButtonClass } from "./buttons";

/**
 * The page an e-mailed link opens (unsubscribe, a saved list's confirm and stop links): a centred card under the
 * link's icon. Opening the link changes nothing (mail scanners open links); `LinkActionForm` is what acts on it.
 */
export function LinkPageCard({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
        <Icon aria-hidden className="mx-auto size-12 text-brand-600" />
        {children}
      </div>
    </main>
  );
}

/** The link page's one button: posts the link's token as `name`, disabled and saying `busyLabel` while it goes. */
export function LinkActionForm(props: { name?: string; token: string; busy: boolean; label: string; busyLabel?: string }) {
  const { name = "token", token, busy, label, busyLabel = "Processing..." } = props;
  return (
    <Form method="post" className="mt-6">
      <input type="hidden" name={name} value={token} />
      <button type="submit" disabled={busy} className={`${primaryButtonClass} w-full`}>
        {busy ? busyLabel : label}
      </button>
    </Form>
  );
}

/** Why a link does nothing (unknown, used, expired): its title as the page's heading, its message announced. */
export function LinkFailure({ failure }: { failure: { title: string; message: string } }) {
  return (
    <>
      <h1 className="mt-4 text-2xl font-bold">{failure.title}</h1>
      <p role="alert" className="mt-2 text-slate-600">
        {failure.message}
      </p>
    </>
  );
}
