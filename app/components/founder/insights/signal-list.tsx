import { ArrowRight, EyeOff, TrendingUp } from "lucide-react";
import { Link } from "react-router";
import type { MySignal } from "~/modules/signals/my-signals.server";
import { formatAmountRange } from "~/modules/formats/amount";
import { cardClass } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/page-header";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { formatFounderDate } from "~/modules/time/founder-dates";

export const NO_SIGNALS_TEXT = "You haven't signaled interest in any projects yet.";

/** The signed-in user's own interest signals, each a card leading to the project's pitch page. */
export function SignalList({ signals, labelledBy }: { signals: MySignal[]; labelledBy: string }) {
  const timeZone = useFounderTimeZone();
  if (signals.length === 0) return <EmptyState compact icon={TrendingUp} title={NO_SIGNALS_TEXT} />;
  return (
    <ul aria-labelledby={labelledBy} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {signals.map((signal) => (
        <li key={signal.id} className="min-w-0">
          <Link
            to={`/pitch/${encodeURIComponent(signal.projectSlug)}`}
            // A document load, so the door counts the visit (decision 47: the pitch page itself counts nothing).
            reloadDocument
            className={`${cardClass} group flex h-full flex-col p-4 transition-shadow hover:border-slate-300 hover:shadow-md sm:p-5`}
          >
            <div className="flex items-start justify-between gap-3">
              <h3 className="min-w-0 font-semibold break-words text-slate-950 group-hover:text-brand-700">{signal.projectTitle}</h3>
              <ArrowRight aria-hidden className="size-4 shrink-0 text-slate-500 group-hover:text-brand-600" />
            </div>
            <p className="mt-2 text-2xl font-bold tracking-tight text-slate-950 tabular-nums">{formatAmountRange(signal.rangeMin, signal.rangeMax)}</p>
            <div className="mt-2 flex flex-wrap items-center gap-1.5">
              <span className="rounded-full bg-green-50 px-2 py-0.5 text-xs font-semibold text-green-700 ring-1 ring-green-600/20 ring-inset">
                {signal.rangeLabel}
              </span>
              {signal.isPublic ? null : (
                <span className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">
                  <EyeOff aria-hidden className="size-3" />
                  Private
                </span>
              )}
            </div>
            {signal.message ? <p className="mt-3 line-clamp-3 text-sm leading-relaxed break-words text-slate-700 italic">“{signal.message}”</p> : null}
            <p className="mt-auto pt-3 text-xs text-slate-500">
              <time dateTime={signal.createdAt}>{formatFounderDate(signal.createdAt, timeZone)}</time>
            </p>
          </Link>
        </li>
      ))}
    </ul>
  );
}
