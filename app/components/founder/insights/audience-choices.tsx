import { Link } from "react-router";

export type AudienceChoice = { source: string; name: string; count?: number };

/**
 * The Analytics page's choice of whose figures a card shows, the whole project or one code (`?audience=`): one row
 * of links, the current one filled, each with its count when the card has one. Both cards that follow the choice
 * use it, so choosing in one shows the same code in the other.
 */
export function AudienceChoices({ label, choices, current, hrefFor }: { label: string; choices: readonly AudienceChoice[]; current: string; hrefFor: (source: string) => string }) {
  return (
    <nav aria-label={label} className="flex flex-wrap gap-1.5 text-sm">
      {choices.map((choice) => {
        const isCurrent = current === choice.source;
        return (
          <Link
            key={choice.source}
            to={hrefFor(choice.source)}
            preventScrollReset
            aria-current={isCurrent ? "true" : undefined}
            className={`inline-flex min-h-9 items-center gap-1.5 rounded-full px-3 py-1 font-medium break-words ring-1 ring-inset ${
              isCurrent ? "bg-brand-600 text-white ring-brand-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"
            }`}
          >
            {choice.name}
            {choice.count === undefined ? null : <span className={`tabular-nums ${isCurrent ? "text-white/85" : "text-slate-500"}`}>{choice.count.toLocaleString("en-US")}</span>}
          </Link>
        );
      })}
    </nav>
  );
}
