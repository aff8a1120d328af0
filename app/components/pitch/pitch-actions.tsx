import { BellRing, Bookmark, CalendarDays, Handshake, TrendingUp, type LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { FOLLOWING_LABEL } from "~/browser/following";
import { httpUrlOrNull } from "./safe-url";
import { dialogLink, type PitchDialogName, type PitchDialogs } from "./use-pitch-dialogs";

type DialogAction = { dialog: Exclude<PitchDialogName, "phone">; label: string; short: string; icon: LucideIcon };

/** The four actions, in the spec's order; the first three open a dialog, Book Meeting leaves the site. */
export const DIALOG_ACTIONS: readonly DialogAction[] = [
  { dialog: "intro", label: "Request Intro", short: "Intro", icon: Handshake },
  { dialog: "subscribe", label: "Follow Updates", short: "Follow", icon: BellRing },
  { dialog: "signal", label: "Signal Interest", short: "Signal", icon: TrendingUp },
];

export const BOOK_LABEL = "Book Meeting";
export const CALENDAR_SOON_LABEL = "Calendar Coming Soon";

export function bookingUrl(calendlyUrl: string | null): string | null {
  return httpUrlOrNull(calendlyUrl);
}

const heroBase =
  "inline-flex min-h-12 items-center justify-center gap-2 whitespace-nowrap rounded-xl px-4 py-3 text-[15px] font-semibold shadow-sm transition-colors sm:px-[18px]";
const heroStyles: Record<DialogAction["dialog"] | "book", string> = {
  // Phones: Request Intro and Book Meeting take a whole row, the other two share one.
  intro: `${heroBase} col-span-2 lg:col-span-1 bg-brand-600 text-white shadow-brand-600/25 hover:bg-brand-700`,
  subscribe: `${heroBase} border border-slate-300 bg-white text-slate-900 hover:bg-slate-50`,
  signal: `${heroBase} bg-slate-900 text-white hover:bg-slate-800`,
  book: `${heroBase} col-span-2 lg:col-span-1 border border-slate-300 bg-white text-slate-900 hover:bg-slate-50`,
};

/** The hero's four buttons: real links (`?dialog=…`), so they work before JavaScript has loaded. */
export function HeroActions({
  dialogs,
  calendlyUrl,
  centered,
  following = false,
}: {
  dialogs: PitchDialogs;
  calendlyUrl: string | null;
  centered?: boolean;
  /** This device follows the project's updates: Follow Updates reads 'Following'. */
  following?: boolean;
}) {
  const booking = bookingUrl(calendlyUrl);
  return (
    <div className={`grid grid-cols-2 gap-2.5 sm:flex sm:flex-wrap sm:gap-3 ${centered ? "md:justify-center" : "md:grid"}`}>
      {DIALOG_ACTIONS.map(({ dialog, label, icon: Icon }) => (
        <Link
          key={dialog}
          {...dialogLink(dialogs, dialog)}
          className={heroStyles[dialog]}
          {...(dialog === "subscribe" ? { "data-following": String(following) } : {})}
        >
          <Icon aria-hidden className="size-[18px] shrink-0" />
          {dialog === "subscribe" ? <span data-follow-label={FOLLOWING_LABEL}>{following ? FOLLOWING_LABEL : label}</span> : label}
        </Link>
      ))}
      {booking ? (
        <a href={booking} target="_blank" rel="noopener noreferrer" className={heroStyles.book}>
          <CalendarDays aria-hidden className="size-[18px] shrink-0" />
          {BOOK_LABEL}
        </a>
      ) : (
        <button type="button" disabled className={`${heroStyles.book} cursor-not-allowed border-dashed text-slate-500 shadow-none hover:bg-white`}>
          <CalendarDays aria-hidden className="size-[18px] shrink-0" />
          {CALENDAR_SOON_LABEL}
        </button>
      )}
    </div>
  );
}

const barItem = "flex min-h-14 flex-col items-center justify-center gap-1 rounded-xl px-1 py-1.5 text-[11px] font-semibold leading-none transition-colors";

/** Under 768 px: the four actions stay in reach at the bottom of the screen. */
export function MobileActionBar({ dialogs, calendlyUrl, following = false }: { dialogs: PitchDialogs; calendlyUrl: string | null; following?: boolean }) {
  const booking = bookingUrl(calendlyUrl);
  return (
    <nav
      aria-label="Quick actions"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200/80 bg-white/95 pb-[env(safe-area-inset-bottom)] shadow-[0_-8px_24px_-12px_rgb(15_23_42/0.18)] backdrop-blur md:hidden"
    >
      <ul className="mx-auto grid max-w-md grid-cols-4 gap-1 px-2 py-1.5">
        {DIALOG_ACTIONS.map(({ dialog, label, short, icon: Icon }) => (
          <li key={dialog}>
            <Link
              {...dialogLink(dialogs, dialog)}
              aria-label={dialog === "subscribe" && following ? FOLLOWING_LABEL : label}
              {...(dialog === "subscribe" ? { "data-following": String(following) } : {})}
              className={`${barItem} ${dialog === "intro" ? "text-brand-700" : "text-slate-700"} hover:bg-slate-100 active:bg-slate-200`}
            >
              <Icon aria-hidden className="size-5" />
              {dialog === "subscribe" ? <span data-follow-label={FOLLOWING_LABEL}>{following ? FOLLOWING_LABEL : short}</span> : short}
            </Link>
          </li>
        ))}
        <li>
          {booking ? (
            <a href={booking} target="_blank" rel="noopener noreferrer" aria-label={BOOK_LABEL} className={`${barItem} text-slate-700 hover:bg-slate-100 active:bg-slate-200`}>
              <CalendarDays aria-hidden className="size-5" />
              Book
            </a>
          ) : (
            <button type="button" disabled aria-label={`${BOOK_LABEL}: ${CALENDAR_SOON_LABEL}`} className={`${barItem} w-full cursor-not-allowed text-slate-500`}>
              <CalendarDays aria-hidden className="size-5" />
              Soon
            </button>
          )}
        </li>
      </ul>
    </nav>
  );
}

/**
 * Save: keeps the pitch in this browser's list, so it needs the page's script, which shows these
 * (hidden without it: a page without the script has no list to save to). `/saved` is a plain link: its page is
 * not a React route one navigates to in place.
 */
export function SaveControls() {
  return (
    <div data-save-controls hidden className="flex items-center gap-3">
      <button
        type="button"
        data-save-pitch
        aria-pressed="false"
        className="inline-flex min-h-11 items-center gap-2 rounded-xl border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-900 shadow-sm transition-colors hover:bg-slate-50 aria-pressed:border-brand-600 aria-pressed:bg-brand-50 aria-pressed:text-brand-700 aria-pressed:[&_svg]:fill-current"
      >
        <Bookmark aria-hidden className="size-4" />
        <span data-save-label>Save</span>
      </button>
      <a href="/saved" className="rounded-lg px-1 py-1 text-sm font-semibold text-brand-700 hover:text-brand-600">
        Saved pitches
      </a>
    </div>
  );
}
