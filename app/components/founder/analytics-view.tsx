import { ArrowUpRight, BellRing, Gauge, Handshake, QrCode, ScanLine, Target, TrendingUp, type LucideIcon } from "lucide-react";
import { useMemo, type ReactNode } from "react";
import { Link } from "react-router";
import type { ProjectAnalytics } from "~/modules/analytics/analytics.server";
import { cardClass, SectionCard } from "~/components/ui/card";
import { PageHeader } from "~/components/ui/page-header";
import { ProjectSectionTop } from "./project-section-nav";
import { EventFunnel } from "./insights/event-funnel";
import { ExportCsvButton } from "./insights/export-csv-button";
import { roleAllows } from "~/modules/access/roles";
import { HowWeCount } from "./insights/how-we-count";
import { ResponseTimesCard } from "./insights/response-times";
import { plural } from "~/modules/formats/counts";
import { seriesColors } from "./insights/format";
import { ScansOverTime } from "./insights/scans-chart";
import { ScanAudienceCard } from "./insights/scan-audience";
import { DeckReadingCard } from "./insights/deck-reading";
import type { DeckReaders } from "~/modules/deck-reading/deck-readers.server";
import { formatEventDay } from "~/modules/qr/qr-form";

/** Analytics: counts, conversion, key metrics, scans over time and per QR code, and the deck's reading. */
export function AnalyticsView({ analytics, deckReaders, now }: { analytics: ProjectAnalytics; deckReaders: DeckReaders | null; now: string }) {
  const { project } = analytics;
  const colors = useMemo(
    () =>
      seriesColors(
        analytics.qrCodes.map((code) => code.id),
        [...analytics.scansOverTime.hourly, ...analytics.scansOverTime.daily],
      ),
    [analytics.qrCodes, analytics.scansOverTime],
  );

  return (
    <main className="mx-auto max-w-6xl px-4 pt-6 pb-16 sm:pt-8">
      <PageHeader
        before={<ProjectSectionTop projectId={project.id} current="analytics" />}
        title={`Analytics: ${project.title}`}
        subtitle={
          <a
            href={`/pitch/${encodeURIComponent(project.slug)}`}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 font-mono text-[13px] text-brand-700 hover:text-brand-600 hover:underline"
          >
            /pitch/{project.slug}
            <ArrowUpRight aria-hidden className="size-3.5" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        }
        actions={
          <>
            {roleAllows(project.role, "export") ? <ExportCsvButton projectId={project.id} projectTitle={project.title} /> : null}
          </>
        }
      />

      <section aria-label="Summary" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
        <StatCard icon={ScanLine} tone="sky" label="Total Scans" value={analytics.totalScans} caption={plural(analytics.uniqueScans, "unique viewer")}>
          <p className="mt-1 text-xs text-slate-500">Scans count page loads; unique viewers count browsers, about one per person.</p>
        </StatCard>
        <StatCard icon={Handshake} tone="violet" label="Intros Offered" value={analytics.totalIntros} caption="intro requests (actions)" />
        <StatCard icon={BellRing} tone="amber" label="Subscribers" value={analytics.totalSubscribers} caption="people following updates" />
        <StatCard icon={TrendingUp} tone="emerald" label="Signals" value={analytics.totalSignals} caption="interest signals (actions)" />
        <ConversionCard analytics={analytics} />
        <KeyMetrics projectId={project.id} metrics={project.metrics} />
      </section>

      <div className="mt-4 grid gap-4">
        <ScansOverTime scansOverTime={analytics.scansOverTime} colors={colors} now={now} />
        {analytics.qrCodes.length ? <QrBreakdown codes={analytics.qrCodes} colors={colors} /> : null}
        <ScanAudienceCard audience={analytics.audience} totalScans={analytics.totalScans} />
        {deckReaders ? <DeckReadingCard deck={deckReaders} codes={analytics.audience.codes} /> : null}
        <EventFunnel rows={analytics.funnel} totalSaves={analytics.totalSaves} />
        <ResponseTimesCard rows={analytics.responseTimes} projectId={project.id} />
        <HowWeCount analytics={analytics} deckReading={deckReaders !== null} />
      </div>
    </main>
  );
}

const TONES = {
  sky: "bg-sky-50 text-sky-600",
  violet: "bg-violet-50 text-violet-600",
  amber: "bg-amber-50 text-amber-600",
  emerald: "bg-emerald-50 text-emerald-600",
  brand: "bg-brand-50 text-brand-600",
} as const;

function StatCard({
  icon: Icon,
  tone,
  label,
  value,
  caption,
  extra,
  children,
  className = "",
}: {
  icon: LucideIcon;
  tone: keyof typeof TONES;
  label: string;
  value: number | string;
  caption: string;
  extra?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <article className={`${cardClass} min-w-0 p-4 sm:p-5 ${className}`}>
      <div className="flex items-start justify-between gap-2">
        <h2 className="pt-1 text-sm font-medium text-slate-600">{label}</h2>
        <span aria-hidden className={`flex size-8 shrink-0 items-center justify-center rounded-lg sm:size-9 ${TONES[tone]}`}>
          <Icon className="size-4 sm:size-[18px]" />
        </span>
      </div>
      <p className="mt-1 text-2xl font-bold tracking-tight text-slate-950 tabular-nums sm:text-3xl">
        {typeof value === "number" ? value.toLocaleString("en-US") : value}
      </p>
      <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-[13px] leading-snug text-slate-500 sm:text-sm">
        <span>{caption}</span>
        {extra}
      </p>
      {children}
    </article>
  );
}

/** (intros + subscribed contacts + signals) / unique viewers; the card shows the sum's parts. */
function ConversionCard({ analytics }: { analytics: ProjectAnalytics }) {
  const parts = [
    { label: "intro", value: analytics.totalIntros, color: "bg-violet-500" },
    { label: "subscriber", value: analytics.totalSubscribers, color: "bg-amber-500" },
    { label: "signal", value: analytics.totalSignals, color: "bg-emerald-500" },
  ];
  return (
    <StatCard
      icon={Gauge}
      tone="brand"
      label="Conversion Rate"
      value={`${analytics.conversionRate.toFixed(1)}%`}
      caption="scan to action"
      className="col-span-2"
      extra={
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 tabular-nums">{plural(analytics.actions, "action")}</span>
      }
    >
      {analytics.actions > 0 ? (
        <div className="mt-3">
          <div aria-hidden className="flex h-2 overflow-hidden rounded-full bg-slate-100">
            {parts.map((part) =>
              part.value ? <span key={part.label} className={part.color} style={{ width: `${(part.value / analytics.actions) * 100}%` }} /> : null,
            )}
          </div>
          <p className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
            {parts.map((part) => (
              <span key={part.label} className="inline-flex items-center gap-1.5">
                <span aria-hidden className={`size-2 rounded-full ${part.color}`} />
                {plural(part.value, part.label)}
              </span>
            ))}
            <span className="text-slate-500">from {plural(analytics.uniqueScans, "unique viewer")}</span>
          </p>
        </div>
      ) : null}
      <p className="mt-3 border-t border-slate-100 pt-3 text-sm text-slate-700">
        <strong className="font-semibold text-slate-950">{plural(analytics.peopleWhoActed, "person", "people")} acted</strong>:{" "}
        {analytics.peopleShare.toFixed(1)}% of {plural(analytics.uniqueScans, "unique viewer")}.
      </p>
    </StatCard>
  );
}

function KeyMetrics({ projectId, metrics }: { projectId: string; metrics: ProjectAnalytics["project"]["metrics"] }) {
  const shown = metrics.filter((metric) => metric.label.trim() || metric.value.trim());
  return (
    <SectionCard id="key-metrics-title" title="Key Metrics" icon={Target} className="col-span-2 lg:col-span-3">
      {shown.length ? (
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3 lg:grid-cols-4">
          {shown.map((metric, index) => (
            <div
              key={index}
              className="flex min-w-0 flex-col-reverse justify-end gap-0.5 rounded-xl bg-slate-50 px-3 py-2.5 ring-1 ring-slate-200/70 ring-inset"
            >
              <dt className="text-xs break-words text-slate-600 sm:text-sm">{metric.label}</dt>
              <dd className="text-lg font-bold tracking-tight break-words text-slate-950 tabular-nums">{metric.value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-sm text-slate-600">
          No key metrics yet.{" "}
          <Link to={`/project/${projectId}/edit`} className="font-semibold text-brand-700 hover:text-brand-600 hover:underline">
            Add traction metrics
          </Link>
        </p>
      )}
    </SectionCard>
  );
}

function QrBreakdown({ codes, colors }: { codes: ProjectAnalytics["qrCodes"]; colors: Map<string, string> }) {
  const max = Math.max(1, ...codes.map((code) => code.totalScans));
  return (
    <SectionCard id="qr-breakdown-title" title="Scans by QR Code" description="Every code you printed, most scanned first" icon={QrCode}>
      <div className="-mx-4 -my-4 overflow-x-auto sm:-mx-5 sm:-my-5">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-slate-200 bg-slate-50/70 text-xs font-medium text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-2.5 font-medium sm:px-5">
                QR code
              </th>
              <th scope="col" className="hidden px-3 py-2.5 font-medium sm:table-cell">
                Event tag
              </th>
              <th scope="col" className="px-3 py-2.5 text-right font-medium">
                Total
              </th>
              <th scope="col" className="px-4 py-2.5 text-right font-medium sm:px-5">
                Unique
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {codes.map((code) => (
              <tr key={code.id}>
                <th scope="row" className="px-4 py-3 font-normal sm:px-5">
                  <span className="flex items-center gap-2">
                    <span aria-hidden className="size-2.5 shrink-0 rounded-sm" style={{ backgroundColor: colors.get(code.id) }} />
                    <span className="min-w-0 font-medium break-words text-slate-900">{code.label}</span>
                    {code.movedAway ? (
                      <span className="shrink-0 rounded-md bg-slate-200 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-slate-700">Moved to another project</span>
                    ) : null}
                    {code.endedOn ? (
                      <span className="shrink-0 rounded-md bg-slate-200 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-slate-700">Ended {formatEventDay(code.endedOn)}</span>
                    ) : null}
                  </span>
                  {code.eventTag ? <EventTag tag={code.eventTag} className="mt-1 ml-4.5 sm:hidden" /> : null}
                  <span aria-hidden className="mt-2 ml-4.5 block h-1 max-w-48 overflow-hidden rounded-full bg-slate-100">
                    <span className="block h-full rounded-full" style={{ width: `${(code.totalScans / max) * 100}%`, backgroundColor: colors.get(code.id) }} />
                  </span>
                </th>
                <td className="hidden px-3 py-3 sm:table-cell">
                  {code.eventTag ? <EventTag tag={code.eventTag} /> : <span className="text-slate-500">None</span>}
                </td>
                <td className="px-3 py-3 text-right font-semibold text-slate-950 tabular-nums">{code.totalScans.toLocaleString("en-US")}</td>
                <td className="px-4 py-3 text-right text-slate-700 tabular-nums sm:px-5">{code.uniqueScans.toLocaleString("en-US")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </SectionCard>
  );
}

function EventTag({ tag, className = "" }: { tag: string; className?: string }) {
  return <span className={`inline-flex rounded-md bg-slate-100 px-1.5 py-0.5 text-xs font-medium break-all text-slate-700 ${className}`}>{tag}</span>;
}
