import { LineChart } from "lucide-react";
import { useId, useMemo, useState, type PointerEvent } from "react";
import type { ProjectAnalytics } from "~/modules/analytics/analytics.server";
import { SectionCard } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/page-header";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { formatFounderDay, formatFounderHour } from "~/modules/time/founder-dates";
import { plural } from "~/modules/formats/counts";
import { bucketLabel, buildChartData, chartSummary, labelIndexes, niceTicks, type ChartData, type ChartRange } from "./format";

const RANGES: { value: ChartRange; label: string }[] = [
  { value: "hourly", label: "Last 48 hours" },
  { value: "daily", label: "Earlier" },
];

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const axisNumber = (value: number) => (value >= 10_000 ? compact.format(value) : value.toLocaleString("en-US"));

/**
 * 'Scans over time': stacked bars per QR code, hourly for the last 48 hours or daily before that (the server's
 * two series), with a legend, a tooltip on hover or tap, and for assistive technology a summary (`role="img"`)
 * plus a visually hidden table of the numbers.
 */
export function ScansOverTime({ scansOverTime, colors, now }: { scansOverTime: ProjectAnalytics["scansOverTime"]; colors: Map<string, string>; now: string }) {
  const hasHourly = scansOverTime.hourly.some((series) => series.points.some((point) => point.scans > 0));
  const hasDaily = scansOverTime.daily.some((series) => series.points.some((point) => point.scans > 0));
  const [range, setRange] = useState<ChartRange>(hasHourly || !hasDaily ? "hourly" : "daily");
  const timeZone = useFounderTimeZone();
  const nowMs = Date.parse(now);
  const data = useMemo(() => buildChartData(range, scansOverTime[range], colors, nowMs, timeZone), [range, scansOverTime, colors, nowMs, timeZone]);
  const id = useId();

  const toggle = (
    <div role="group" aria-label="Time range" className="inline-flex rounded-lg bg-slate-100 p-1 ring-1 ring-slate-200 ring-inset">
      {RANGES.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={range === option.value}
          onClick={() => setRange(option.value)}
          className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 hover:text-slate-900 aria-pressed:bg-white aria-pressed:text-slate-950 aria-pressed:shadow-sm"
        >
          {option.label}
        </button>
      ))}
    </div>
  );

  return (
    <SectionCard
      id={`${id}-title`}
      title="Scans over time"
      description={range === "hourly" ? "Per QR code, hour by hour, in your time zone" : "Per QR code, day by day in your time zone, before the last 48 hours"}
      icon={LineChart}
      actions={hasHourly || hasDaily ? toggle : undefined}
    >
      {!hasHourly && !hasDaily ? (
        <EmptyState
          compact
          icon={LineChart}
          title="No scans yet"
          text="Scans appear here hour by hour once people open your pitch page from a QR code or its link."
        />
      ) : data.total === 0 ? (
        <EmptyState
          compact
          icon={LineChart}
          title={range === "hourly" ? "No scans in the last 48 hours" : "No earlier scans"}
          text={range === "hourly" ? "Switch to Earlier to see scans from before." : "Every scan so far happened in the last 48 hours."}
        />
      ) : (
        <Chart data={data} timeZone={timeZone} />
      )}
    </SectionCard>
  );
}

function Chart({ data, timeZone }: { data: ChartData; timeZone: string }) {
  const [active, setActive] = useState<number | null>(null);
  const n = data.buckets.length;
  const ticks = niceTicks(Math.max(...data.totals));
  const top = ticks[ticks.length - 1]!;
  const summary = chartSummary(data, timeZone);
  const unit = data.range === "hourly" ? "hour" : "day";

  const bucketAt = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const index = Math.floor(((event.clientX - box.left) / box.width) * n);
    return Math.min(n - 1, Math.max(0, index));
  };

  // Stacked segments: series in legend order, bottom up; zero values draw nothing.
  const segments = data.buckets.flatMap((_, i) => {
    let base = 0;
    return data.series.flatMap((series) => {
      const value = series.values[i]!;
      if (!value) return [];
      const segment = { key: `${series.qrCodeId}-${i}`, x: i, y: top - base - value, height: value, color: series.color };
      base += value;
      return [segment];
    });
  });

  return (
    <figure className="m-0">
      <div role="img" aria-label={summary}>
        <div aria-hidden className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2">
          {/* Y axis */}
          <div className="relative h-52 sm:h-64">
            {ticks.map((tick) => (
              <span
                key={tick}
                className="absolute right-0 translate-y-1/2 text-[11px] leading-none text-slate-500 tabular-nums"
                style={{ bottom: `${(tick / top) * 100}%` }}
              >
                {axisNumber(tick)}
              </span>
            ))}
            {/* Keeps the column as wide as its widest label. */}
            <span className="invisible block h-0 text-[11px] tabular-nums">{axisNumber(top)}</span>
          </div>

          {/* Plot */}
          <div
            className="relative h-52 touch-pan-y sm:h-64"
            onPointerMove={(event) => setActive(bucketAt(event))}
            onPointerDown={(event) => {
              // A second tap on the same bar (touch, pen) closes its tooltip.
              const index = bucketAt(event);
              setActive((current) => (event.pointerType !== "mouse" && current === index ? null : index));
            }}
            onPointerLeave={(event) => {
              if (event.pointerType === "mouse") setActive(null);
            }}
          >
            {ticks.map((tick) => (
              <div
                key={tick}
                className={`absolute inset-x-0 border-t ${tick === 0 ? "border-slate-300" : "border-dashed border-slate-200"}`}
                style={{ bottom: `${(tick / top) * 100}%` }}
              />
            ))}
            {active !== null ? (
              <div className="absolute inset-y-0 rounded-sm bg-slate-900/[0.06]" style={{ left: `${(active / n) * 100}%`, width: `${100 / n}%` }} />
            ) : null}
            <svg className="absolute inset-0 size-full overflow-visible" viewBox={`0 0 ${n} ${top}`} preserveAspectRatio="none">
              {segments.map((segment) => (
                <rect
                  key={segment.key}
                  x={segment.x + (n > 60 ? 0.1 : 0.18)}
                  width={n > 60 ? 0.8 : 0.64}
                  y={segment.y}
                  height={segment.height}
                  fill={segment.color}
                  opacity={active === null || active === segment.x ? 1 : 0.55}
                  shapeRendering="crispEdges"
                />
              ))}
            </svg>
            {active !== null ? <Tooltip data={data} index={active} timeZone={timeZone} /> : null}
          </div>

          {/* X axis */}
          <div />
          <XAxis data={data} timeZone={timeZone} />
        </div>
      </div>

      <figcaption className="mt-4">
        <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-2">
          {data.series.map((series) => (
            <li key={series.qrCodeId} className="flex min-w-0 items-center gap-2 text-sm">
              <span aria-hidden className="size-3 shrink-0 rounded-sm" style={{ backgroundColor: series.color }} />
              <span className="min-w-0 truncate font-medium text-slate-800">{series.label}</span>
              {series.eventTag ? <span className="truncate text-slate-500">{series.eventTag}</span> : null}
              <span className="font-semibold text-slate-950 tabular-nums">{series.total.toLocaleString("en-US")}</span>
            </li>
          ))}
        </ul>
      </figcaption>

      <div className="sr-only">
        <table>
          <caption>
            Scans per {unit}, {data.range === "hourly" ? "last 48 hours" : "before the last 48 hours"}; {unit}s without scans are left out.
          </caption>
          <thead>
            <tr>
              <th scope="col">{data.range === "hourly" ? "Hour" : "Day"}</th>
              {data.series.map((series) => (
                <th key={series.qrCodeId} scope="col">
                  {series.label}
                </th>
              ))}
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {data.buckets.map((at, i) =>
              data.totals[i] ? (
                <tr key={at}>
                  <th scope="row">{bucketLabel(data.range, at, timeZone)}</th>
                  {data.series.map((series) => (
                    <td key={series.qrCodeId}>{series.values[i]}</td>
                  ))}
                  <td>{data.totals[i]}</td>
                </tr>
              ) : null,
            )}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** A bucket's position as a share of the plot width; labels are shifted by the same share so none overflows. */
function position(index: number, n: number): number {
  return ((index + 0.5) / n) * 100;
}

function XAxis({ data, timeZone }: { data: ChartData; timeZone: string }) {
  const n = data.buckets.length;
  const render = (indexes: number[], className: string) => {
    let previousDay = "";
    return (
      <div className={`relative h-9 ${className}`}>
        {indexes.map((i) => {
          const at = data.buckets[i]!;
          const day = formatFounderDay(at, timeZone);
          const showDay = data.range === "hourly" && day !== previousDay;
          previousDay = day;
          const left = position(i, n);
          return (
            <span
              key={at}
              className="absolute top-1.5 text-[11px] leading-tight whitespace-nowrap text-slate-500"
              style={{ left: `${left}%`, transform: `translateX(-${left}%)` }}
            >
              {data.range === "hourly" ? formatFounderHour(at, timeZone) : day}
              {showDay ? <span className="block font-medium text-slate-700">{day}</span> : null}
            </span>
          );
        })}
      </div>
    );
  };
  return (
    <>
      {render(labelIndexes(n, 4), "sm:hidden")}
      {render(labelIndexes(n, data.range === "hourly" ? 8 : 10), "hidden sm:block")}
    </>
  );
}

function Tooltip({ data, index, timeZone }: { data: ChartData; index: number; timeZone: string }) {
  const left = position(index, data.buckets.length);
  const rows = data.series.filter((series) => series.values[index]! > 0);
  return (
    <div
      className="pointer-events-none absolute top-1 z-10 w-max max-w-56 rounded-lg bg-slate-900 px-3 py-2 text-xs text-white shadow-lg"
      style={{ left: `${left}%`, transform: `translateX(-${left}%)` }}
    >
      <p className="font-semibold">{bucketLabel(data.range, data.buckets[index]!, timeZone)}</p>
      {rows.length ? (
        <ul className="mt-1 space-y-0.5">
          {rows.map((series) => (
            <li key={series.qrCodeId} className="flex items-center gap-2">
              <span className="size-2 shrink-0 rounded-sm" style={{ backgroundColor: series.color }} />
              <span className="min-w-0 flex-1 truncate text-slate-200">{series.label}</span>
              <span className="font-semibold tabular-nums">{series.values[index]}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="mt-1 text-slate-300">{plural(data.totals[index]!, "scan")}</p>
    </div>
  );
}
