import { Timer } from "lucide-react";
import { Link } from "react-router";
import { SectionCard } from "~/components/ui/card";
import type { ProjectAnalytics } from "~/modules/analytics/analytics.server";
import type { KnownShare } from "~/modules/analytics/response-times";
import { leadFilterQuery } from "~/modules/leads/lead-forms";
import { formatWaitDuration } from "~/modules/time/relative-time";
import { pluralWord } from "~/modules/formats/counts";

const share = ({ answered, of }: KnownShare) => (of ? `${Math.round((answered / of) * 100)}%` : "–");
const shareTitle = ({ answered, of }: KnownShare) => `${answered} of ${of}`;
const median = ({ medianMs }: { medianMs: number | null }) => (medianMs === null ? "–" : formatWaitDuration(medianMs));

/**
 * The response clock per event (decision 55): how fast the people each code brought got an answer. A lead
 * still waiting counts against a mark only once it has passed.
 */
export function ResponseTimesCard({ rows, projectId }: { rows: ProjectAnalytics["responseTimes"]; projectId: string }) {
  const waiting = rows.reduce((sum, row) => sum + row.waiting, 0);
  return (
    <SectionCard
      id="response-times-title"
      title="Time to answer"
      description="Per event: of the people in your inbox, how many you answered within an hour and within a day (a status change is an answer), and the median time"
      icon={Timer}
    >
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No one to answer yet.</p>
      ) : (
        <>
          {/* A phone reads one event per block; a wider screen, the table. */}
          <ul className="space-y-2 sm:hidden">
            {rows.map((row) => (
              <li key={row.source} className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
                <p className="font-semibold break-words text-slate-900">{row.name}</p>
                <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1.5 text-sm">
                  {(
                    [
                      ["People", String(row.leads)],
                      ["Within 1 hour", share(row.withinHour)],
                      ["Within 24 hours", share(row.withinDay)],
                      ["Median", median(row)],
                    ] as const
                  ).map(([label, value]) => (
                    <div key={label}>
                      <dt className="text-xs text-slate-600">{label}</dt>
                      <dd className="font-semibold text-slate-950 tabular-nums">{value}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
          <div className="hidden sm:block">
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Event
                  </th>
                  <th scope="col" className="px-2 py-2 text-right font-semibold">
                    People
                  </th>
                  <th scope="col" className="px-2 py-2 text-right font-semibold">
                    Within 1 hour
                  </th>
                  <th scope="col" className="px-2 py-2 text-right font-semibold">
                    Within 24 hours
                  </th>
                  <th scope="col" className="py-2 pl-2 text-right font-semibold">
                    Median
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((row) => (
                  <tr key={row.source}>
                    <th scope="row" className="py-2 pr-3 font-medium break-words text-slate-900">
                      {row.name}
                    </th>
                    <td className="px-2 py-2 text-right tabular-nums">{row.leads}</td>
                    <td className="px-2 py-2 text-right tabular-nums" title={shareTitle(row.withinHour)}>
                      {share(row.withinHour)}
                    </td>
                    <td className="px-2 py-2 text-right tabular-nums" title={shareTitle(row.withinDay)}>
                      {share(row.withinDay)}
                    </td>
                    <td className="py-2 pl-2 text-right tabular-nums">{median(row)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {waiting ? (
            <p className="mt-3 text-sm">
              <Link to={`/project/${projectId}/leads${leadFilterQuery({ view: "unanswered" })}`} className="font-semibold text-brand-700 hover:underline">
                {`${waiting} ${pluralWord(waiting, "person is", "people are")}`} waiting for an answer
              </Link>
            </p>
          ) : null}
        </>
      )}
    </SectionCard>
  );
}
