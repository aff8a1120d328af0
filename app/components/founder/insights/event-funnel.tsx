import { ArrowDown, Filter, Trophy } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import type { FunnelRow } from "~/modules/analytics/analytics.server";
import { SectionCard } from "~/components/ui/card";
import { codeName } from "~/modules/analytics/source-names";
import { plural } from "~/modules/formats/counts";

const COLUMNS = [
  { key: "scans", label: "Scans" },
  { key: "viewers", label: "Unique viewers" },
  { key: "people", label: "People who acted" },
  { key: "intros", label: "Intros" },
  { key: "subscribers", label: "Subscribers" },
  { key: "signals", label: "Signals" },
  { key: "saves", label: "Saved by" },
  { key: "share", label: "Viewers who acted" },
] as const;

type SortKey = (typeof COLUMNS)[number]["key"];

const isSortKey = (value: string | null): value is SortKey => COLUMNS.some((column) => column.key === value);

/** Below this many unique viewers a share is luck (one person of three is 33 %): such a code is never named best. */
export const BEST_EVENT_MIN_VIEWERS = 10;

/**
 * The event that turned the largest share of its viewers into people who acted (more people breaks a tie), among
 * those with at least `BEST_EVENT_MIN_VIEWERS` unique viewers.
 */
export function bestEvent(rows: readonly FunnelRow[]): FunnelRow | null {
  let best: FunnelRow | null = null;
  for (const row of rows) {
    if (row.kind === "unknown" || row.viewers < BEST_EVENT_MIN_VIEWERS || row.people === 0) continue;
    if (!best || row.share > best.share || (row.share === best.share && row.people > best.people)) best = row;
  }
  return best;
}

export function sortFunnel(rows: readonly FunnelRow[], key: SortKey): FunnelRow[] {
  return [...rows].sort((a, b) => b[key] - a[key] || b.people - a.people || b.scans - a.scans || a.label.localeCompare(b.label));
}

const formatShare = (row: FunnelRow) => (row.viewers ? `${row.share.toFixed(1)}%` : "–");

/**
 * Per QR code and for the plain link, side by side, from scan to action. Sorted by a column (a link,
 * so it works without JavaScript and can be shared); the best event is named above the table.
 */
export function EventFunnel({ rows, totalSaves }: { rows: FunnelRow[]; totalSaves: number }) {
  const [params] = useSearchParams();
  const requested = params.get("sort");
  const sortKey: SortKey = isSortKey(requested) ? requested : "share";
  const sorted = sortFunnel(rows, sortKey);
  const best = bestEvent(rows);
  const sortHref = (key: SortKey) => {
    const next = new URLSearchParams(params);
    next.set("sort", key);
    return `?${next.toString()}#funnel-title`;
  };

  return (
    <SectionCard id="funnel-title" title="Funnel by Event" description="From scan to action, per QR code and for your plain link" icon={Filter}>
      <p className="mb-3 text-sm text-slate-600">
        <strong data-total-saves className="font-semibold text-slate-950">
          Saved by {plural(totalSaves, "visitor")}
        </strong>{" "}
        to their phone&apos;s list (counted once per visitor, kept when they remove it; no names).
      </p>
      <p className="mb-3 text-sm text-slate-600">
        Scans, intros, subscribers and signals count actions; unique viewers, people who acted and saves count people (the
        lead inbox lists people). People your team met and added at a code show as &ldquo;met in person&rdquo; beside it, apart
        from its visitors.
      </p>
      {best ? (
        <p className="mb-4 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-xl bg-emerald-50 px-3 py-2.5 text-sm text-emerald-900 ring-1 ring-emerald-600/15 ring-inset">
          <Trophy aria-hidden className="size-4 shrink-0 text-emerald-700" />
          <span>
            Best event: <strong className="font-semibold">{codeName(best.label, best.eventTag)}</strong>: {best.share.toFixed(1)}% of its viewers acted ({best.people} of {best.viewers}).
          </span>
        </p>
      ) : (
        <p data-best-event-pending className="mb-4 text-sm text-slate-600">
          {rows.some((row) => row.kind !== "unknown" && row.people > 0)
            ? `Best event appears once a code has ${BEST_EVENT_MIN_VIEWERS} unique viewers and someone among them acted.`
            : "No one has acted yet. Once people do, the event that works best shows here."}
        </p>
      )}

      <nav aria-label="Sort events by" className="mb-3 flex flex-wrap gap-1.5 text-xs md:hidden">
        {COLUMNS.map((column) => (
          <Link
            key={column.key}
            to={sortHref(column.key)}
            preventScrollReset
            aria-current={column.key === sortKey ? "true" : undefined}
            className={`rounded-full px-2.5 py-1 font-medium ring-1 ring-inset ${
              column.key === sortKey ? "bg-brand-600 text-white ring-brand-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"
            }`}
          >
            {column.label}
          </Link>
        ))}
      </nav>

      <ul className="grid gap-3 md:hidden" aria-label="Events">
        {sorted.map((row) => (
          <li key={row.source} className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200/70 ring-inset">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-semibold break-words text-slate-900">{row.label}</span>
              {row.eventTag ? <span className="rounded-md bg-white px-1.5 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-200">{row.eventTag}</span> : null}
              {row === best ? <BestBadge /> : null}
              <MetInPerson count={row.metInPerson} />
            </p>
            <dl className="mt-2 grid grid-cols-3 gap-x-3 gap-y-2">
              {COLUMNS.map((column) => (
                <div key={column.key} className="flex flex-col-reverse">
                  <dt className="text-[11px] leading-tight text-slate-600">{column.label}</dt>
                  <dd className="font-semibold text-slate-950 tabular-nums">{column.key === "share" ? formatShare(row) : row[column.key].toLocaleString("en-US")}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>

      <div className="-mx-5 -mb-5 hidden overflow-x-auto md:block">
        <table className="w-full text-left text-sm">
          <thead className="border-y border-slate-200 bg-slate-50/70 text-xs text-slate-600">
            <tr>
              <th scope="col" className="px-5 py-2.5 font-medium">
                Event
              </th>
              {COLUMNS.map((column) => (
                <th key={column.key} scope="col" aria-sort={column.key === sortKey ? "descending" : undefined} className="px-3 py-2.5 text-right font-medium last:pr-5">
                  <Link to={sortHref(column.key)} preventScrollReset className="inline-flex items-center gap-1 hover:text-slate-900">
                    {column.label}
                    {column.key === sortKey ? <ArrowDown aria-hidden className="size-3" /> : null}
                  </Link>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {sorted.map((row) => (
              <tr key={row.source} className={row === best ? "bg-emerald-50/60" : undefined}>
                <th scope="row" className="px-5 py-3 font-normal">
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-medium break-words text-slate-900">{row.label}</span>
                    {row.eventTag ? <span className="rounded-md bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">{row.eventTag}</span> : null}
                    {row === best ? <BestBadge /> : null}
                    <MetInPerson count={row.metInPerson} />
                  </span>
                </th>
                {COLUMNS.map((column) => (
                  <td key={column.key} className="px-3 py-3 text-right text-slate-800 tabular-nums last:pr-5 last:font-semibold last:text-slate-950">
                    {column.key === "share" ? formatShare(row) : row[column.key].toLocaleString("en-US")}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </SectionCard>
  );
}

function BestBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-emerald-700 px-2 py-0.5 text-[11px] font-semibold text-white">
      <Trophy aria-hidden className="size-3" />
      Best
    </span>
  );
}

/** People the team met at this code and added (decision 62): beside the visitors' numbers, never counted in them. */
function MetInPerson({ count }: { count: number }) {
  if (!count) return null;
  return (
    <span data-met-in-person className="rounded-full bg-amber-50 px-2 py-0.5 text-[11px] font-semibold text-amber-900 ring-1 ring-amber-600/20 ring-inset">
      {count.toLocaleString("en-US")} met in person
    </span>
  );
}
