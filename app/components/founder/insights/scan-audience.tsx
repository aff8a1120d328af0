import { Smartphone } from "lucide-react";
import { useSearchParams } from "react-router";
import { AudienceChoices } from "./audience-choices";
import type { ProjectAnalytics } from "~/modules/analytics/analytics.server";
import type { AudienceBreakdown, AudienceShare } from "~/modules/analytics/audience.server";
import { SectionCard } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/page-header";
import { plural } from "~/modules/formats/counts";

const PROJECT = "all";
const percent = (scans: number, of: number) => (of ? `${Math.round((scans / of) * 100)}%` : "–");
const hourLabel = (hour: number, minute: number) => `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;

/**
 * Decision 67: how people scanned (device family, browser, the app whose browser opened the page)
 * and when (hour of the founder's day), for the whole project or one code, chosen by a link so it works without
 * JavaScript. Every bar has its number written beside it.
 */
export function ScanAudienceCard({ audience, totalScans }: { audience: ProjectAnalytics["audience"]; totalScans: number }) {
  const [params] = useSearchParams();
  const chosen = audience.codes.find((code) => code.source === params.get("audience"));
  const breakdown: AudienceBreakdown = chosen ?? audience.project;
  const hrefFor = (source: string) => {
    const next = new URLSearchParams(params);
    next.set("audience", source);
    return `?${next.toString()}#audience-title`;
  };
  const choices = [{ source: PROJECT, name: "Whole project", scans: audience.project.scans }, ...audience.codes];

  return (
    <SectionCard
      id="audience-title"
      title="How and when people scanned"
      description="Device, browser and hour of day of each counted scan. Only these labels are kept, never an address or a full browser string."
      icon={Smartphone}
    >
      {audience.project.scans === 0 ? (
        <EmptyState
          compact
          icon={Smartphone}
          title="No scans to describe yet"
          text={
            totalScans
              ? `${totalScans === 1 ? "Your one scan so far was" : `Your ${totalScans.toLocaleString("en-US")} scans so far were`} counted before devices were. New scans' devices, browsers and hours show here.`
              : "Once people open your pitch page, their devices, browsers and hours show here."
          }
        />
      ) : (
        <div data-scan-audience className="grid gap-4">
          <AudienceChoices
            label="Show scans of"
            choices={choices.map((choice) => ({ source: choice.source, name: choice.name, count: choice.scans }))}
            current={chosen?.source ?? PROJECT}
            hrefFor={hrefFor}
          />

          <p className="text-sm text-slate-600">
            <strong className="font-semibold text-slate-950">{chosen ? chosen.name : "Whole project"}</strong>: {plural(breakdown.scans, "scan")} described.
            {!chosen && audience.project.scans < totalScans ? ` The ${plural(totalScans - audience.project.scans, "scan")} counted before devices were counted are not in these figures.` : null}
          </p>

          <div className="grid gap-3 md:grid-cols-3">
            <ShareList title="Device" shares={breakdown.devices} of={breakdown.scans} />
            <ShareList title="Browser" shares={breakdown.browsers} of={breakdown.scans} />
            <ShareList
              title="In-app browser"
              shares={breakdown.apps}
              of={breakdown.scans}
              note="Share of all scans opened inside an app (LinkedIn, WhatsApp, Instagram…) rather than a browser of their own."
              empty="Every scan opened in a browser of its own."
            />
          </div>

          <HourOfDay hours={breakdown.hours} timeZone={audience.timeZone} startsAtMinute={audience.hourStartsAtMinute} />
        </div>
      )}
    </SectionCard>
  );
}

function ShareList({ title, shares, of, note, empty }: { title: string; shares: AudienceShare[]; of: number; note?: string; empty?: string }) {
  return (
    <section aria-label={title} className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200/70 ring-inset">
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      {note ? <p className="mt-0.5 text-xs text-slate-600">{note}</p> : null}
      {shares.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="mt-2 grid gap-2">
          {shares.map((share) => (
            <li key={share.label} className="text-sm">
              <span className="flex items-baseline justify-between gap-3">
                <span className="min-w-0 font-medium break-words text-slate-800">{share.label}</span>
                <span className="shrink-0 text-slate-700 tabular-nums">
                  <strong className="font-semibold text-slate-950">{percent(share.scans, of)}</strong> · {share.scans.toLocaleString("en-US")}
                </span>
              </span>
              <span aria-hidden className="mt-1 block h-1.5 overflow-hidden rounded-full bg-slate-200/70">
                <span className="block h-full rounded-full bg-brand-500" style={{ width: `${of ? (share.scans / of) * 100 : 0}%` }} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** 24 bars, the busiest hour written out, and every hour's count in a list that opens under them. */
function HourOfDay({ hours, timeZone, startsAtMinute }: { hours: number[]; timeZone: string; startsAtMinute: number }) {
  const max = Math.max(1, ...hours);
  const busiest = hours.indexOf(Math.max(...hours));
  const range = (hour: number) => `${hourLabel(hour, startsAtMinute)}–${hourLabel((hour + 1) % 24, startsAtMinute)}`;
  return (
    <section aria-label="Hour of day" className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200/70 ring-inset">
      <h3 className="text-sm font-semibold text-slate-900">Hour of day</h3>
      <p className="mt-0.5 text-xs text-slate-600">
        In your time zone, {timeZone}.
        {startsAtMinute ? ` Scans are counted by the hour in UTC, so each hour here runs from :${String(startsAtMinute).padStart(2, "0")} to :${String(startsAtMinute).padStart(2, "0")}.` : null}
      </p>
      <p className="mt-2 text-sm text-slate-700">
        Busiest: <strong data-busiest-hour className="font-semibold text-slate-950 tabular-nums">{range(busiest)}</strong>, {plural(hours[busiest]!, "scan")}.
      </p>
      <div aria-hidden className="mt-3 flex h-24 items-end gap-px border-b border-slate-300 sm:gap-1">
        {hours.map((scans, hour) => (
          <span key={hour} title={`${range(hour)}: ${plural(scans, "scan")}`} className="flex h-full min-w-0 flex-1 items-end">
            <span className={`block w-full rounded-t-sm ${hour === busiest ? "bg-brand-600" : "bg-brand-400"}`} style={{ height: scans ? `${Math.max(4, (scans / max) * 100)}%` : 0 }} />
          </span>
        ))}
      </div>
      <div aria-hidden className="mt-1 flex gap-px text-[11px] text-slate-500 tabular-nums sm:gap-1">
        {hours.map((_, hour) => (
          <span key={hour} className="min-w-0 flex-1 overflow-visible whitespace-nowrap">
            {hour % 6 === 0 ? hourLabel(hour, startsAtMinute) : null}
          </span>
        ))}
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer py-1 font-medium text-brand-700 hover:text-brand-600">Every hour</summary>
        <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
          {hours.map((scans, hour) => (
            <div key={hour} className="flex justify-between gap-2 border-b border-slate-200/70 py-1">
              <dt className="text-slate-600 tabular-nums">{range(hour)}</dt>
              <dd className="font-semibold text-slate-950 tabular-nums">{scans.toLocaleString("en-US")}</dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}
