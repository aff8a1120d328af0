import { Bookmark, Mail } from "lucide-react";
import { primaryButtonClass } from "~/components/ui/buttons";
import { TextField } from "~/components/ui/form-fields";
import { maxLengthOf } from "~/modules/forms/constraints";
import { visitorEmail } from "~/modules/forms/visitor-fields";

/**
 * `/saved`: the same document for everyone, like the anonymous pitch page (decision 13). The list lives
 * in this browser's storage, so the page's script (`app/pitch-client/saved-page.ts`) fills it in; without the
 * script the page says so.
 */
export function SavedListView() {
  return (
    <main data-saved-page className="mx-auto max-w-2xl px-4 pb-16 pt-8 sm:pt-12">
      <h1 className="flex items-center gap-2 text-2xl font-extrabold tracking-tight text-slate-950 sm:text-3xl">
        <Bookmark aria-hidden className="size-6 text-brand-600" />
        Saved pitches
      </h1>
      <p className="mt-2 text-slate-600">Kept on this phone only: no account, and nobody else sees it.</p>

      <noscript>
        <p className="mt-6 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-600/20 ring-inset">
          Your saved list is kept by this browser and needs JavaScript to show. Turn it on to see and e-mail your list.
        </p>
      </noscript>

      <ol data-saved-items aria-label="Saved pitches" className="mt-6 grid gap-3" />

      <div data-saved-empty hidden className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
        <Bookmark aria-hidden className="mx-auto size-8 text-slate-400" />
        <h2 className="mt-3 font-semibold text-slate-900">Nothing saved yet</h2>
        <p className="mx-auto mt-1 max-w-sm text-sm text-slate-600">
          Tap <strong className="font-semibold">Save</strong> on any pitch page you scan at an event. Each pitch is kept here, with the event you found it at,
          and you can e-mail yourself the whole list at the end of the day.
        </p>
      </div>

      <form data-saved-mail hidden noValidate className="mt-8 grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <h2 className="flex items-center gap-2 font-semibold text-slate-900">
          <Mail aria-hidden className="size-4 text-brand-600" />
          E-mail me this list
        </h2>
        <TextField
          id="saved-email"
          name="email"
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          maxLength={maxLengthOf(visitorEmail)}
          hint="One e-mail with every pitch above. No tracking, and you are not subscribed to anything."
        />
        <p id="saved-email-error" data-saved-mail-error role="alert" className="text-sm font-medium text-red-700 empty:hidden" />
        <button type="submit" className={primaryButtonClass}>
          E-mail me this list
        </button>
      </form>
    </main>
  );
}
