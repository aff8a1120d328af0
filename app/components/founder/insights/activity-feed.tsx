import { Activity, Handshake, Megaphone, ScanLine, TrendingUp, type LucideIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { SectionCard } from "~/components/ui/card";
import { LiveBadge } from "~/components/ui/live-badge";
import { EmptyState } from "~/components/ui/page-header";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { ActivityItem, ActivityType } from "~/modules/activity/activity.server";
import { formatActivityTime } from "~/modules/time/relative-time";
import { plural } from "~/modules/formats/counts";

/** Refresh every 10 s, 20 items shown. */
export const ACTIVITY_REFRESH_MS = 10_000;
export const ACTIVITY_SHOWN = 20;
export const ACTIVITY_URL = "/api/activity";

/** The feed's colours: scan blue, intro purple, signal green, update orange. */
const TYPES: Record<ActivityType, { icon: LucideIcon; label: string; className: string }> = {
  scan: { icon: ScanLine, label: "Scan", className: "bg-blue-50 text-blue-600 ring-blue-600/15" },
  intro: { icon: Handshake, label: "Intro", className: "bg-purple-50 text-purple-600 ring-purple-600/15" },
  signal: { icon: TrendingUp, label: "Signal", className: "bg-green-50 text-green-600 ring-green-600/15" },
  update: { icon: Megaphone, label: "Update", className: "bg-orange-50 text-orange-600 ring-orange-600/15" },
};

function isActivityItems(value: unknown): value is ActivityItem[] {
  return Array.isArray(value) && value.every((item) => item && typeof item === "object" && typeof item.id === "string" && typeof item.title === "string");
}

/**
 * The feed's items: the loader's, then the newest answer of `GET /api/activity`, polled every 10 s while the tab
 * is visible (and at once when it becomes visible again), one request at a time.
 *
 * A plain `fetch`, not `useFetcher().load()`: a fetcher's failed load (a dropped connection on conference wi-fi,
 * a server restart) is routed to the error boundary and would replace the whole dashboard; here a failure is
 * only logged and the feed keeps what it shows. When the loader's data is revalidated, it
 * is the newest until the next poll.
 */
export function useActivityFeed(initial: ActivityItem[]): ActivityItem[] {
  const [polled, setPolled] = useState<{ base: ActivityItem[]; items: ActivityItem[] } | null>(null);
  useEffect(() => {
    let inFlight: AbortController | null = null;
    let stopped = false;
    const refresh = async () => {
      if (document.hidden || inFlight) return;
      const controller = new AbortController();
      inFlight = controller;
      try {
        const response = await fetch(ACTIVITY_URL, { headers: { Accept: "application/json" }, cache: "no-store", signal: controller.signal });
        if (!response.ok) throw new Error(`${ACTIVITY_URL} answered ${response.status}`);
        const body = (await response.json()) as { items?: unknown };
        if (!stopped && isActivityItems(body.items)) setPolled({ base: initial, items: body.items });
      } catch (error) {
        if (!stopped) console.warn("Activity feed refresh failed", error);
      } finally {
        inFlight = null;
      }
    };
    const poll = () => void refresh();
    const timer = setInterval(poll, ACTIVITY_REFRESH_MS);
    document.addEventListener("visibilitychange", poll);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", poll);
      inFlight?.abort();
    };
  }, [initial]);
  return polled && polled.base === initial ? polled.items : initial;
}

/** Ids that arrived with the latest refresh (highlighted for one refresh, and announced politely). */
function useFreshIds(items: ActivityItem[]): Set<string> {
  const [previous, setPrevious] = useState(items);
  const [fresh, setFresh] = useState<Set<string>>(() => new Set());
  if (previous !== items) {
    const known = new Set(previous.map((item) => item.id));
    setPrevious(items);
    setFresh(new Set(items.filter((item) => !known.has(item.id)).map((item) => item.id)));
  }
  return fresh;
}

export function ActivityFeed({ initial, now, className = "" }: { initial: ActivityItem[]; now: Date; className?: string }) {
  const all = useActivityFeed(initial);
  const fresh = useFreshIds(all);
  const items = all.slice(0, ACTIVITY_SHOWN);
  const hydrated = useHydrated();
  const freshCount = items.filter((item) => fresh.has(item.id)).length;

  return (
    <SectionCard
      id="activity-title"
      title="Live Activity"
      description="Scans, intros, signals and updates on your projects, as they happen"
      icon={Activity}
      className={className}
      actions={<LiveBadge latest={items[0]?.id} />}
    >
      <p role="status" className="sr-only">
        {freshCount ? `${plural(freshCount, "new activity item")}` : ""}
      </p>
      {items.length === 0 ? (
        <EmptyState
          compact
          icon={Activity}
          title="No activity yet"
          text="Share your pitch page or print its QR code: scans, intros and signals show up here within seconds."
        />
      ) : (
        // The list area is 400 px high and scrolls; focusable so keyboards can scroll it.
        <div tabIndex={0} role="region" aria-label="Activity, newest first" className="-mx-2 h-[400px] overflow-y-auto overscroll-contain rounded-lg px-2">
          <ol className="divide-y divide-slate-100">
            {items.map((item) => (
              <ActivityRow key={item.id} item={item} now={now} fresh={fresh.has(item.id)} hydrated={hydrated} />
            ))}
          </ol>
        </div>
      )}
    </SectionCard>
  );
}

function ActivityRow({ item, now, fresh, hydrated }: { item: ActivityItem; now: Date; fresh: boolean; hydrated: boolean }) {
  const timeZone = useFounderTimeZone();
  const type = TYPES[item.type] ?? TYPES.update;
  const Icon = type.icon;
  return (
    <li
      className={`-mx-2 flex gap-3 rounded-lg px-2 py-3 transition-colors duration-1000 motion-reduce:transition-none ${fresh ? "bg-brand-50/70" : "bg-transparent"}`}
    >
      <span aria-hidden className={`mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full ring-1 ring-inset ${type.className}`}>
        <Icon className="size-4" />
      </span>
      {/* Phones: title, description, time; wider: the time sits to the right of the title. */}
      <div className="grid min-w-0 flex-1 grid-cols-1 gap-x-3 sm:grid-cols-[minmax(0,1fr)_auto]">
        <p className="min-w-0 font-medium break-words text-slate-900">
          <span className="sr-only">{type.label}: </span>
          {item.title}
        </p>
        {/* Dates a week or more old are locale-formatted: re-mounted after hydration to show the viewer's own. */}
        <time
          key={hydrated ? "client" : "server"}
          dateTime={item.timestamp}
          suppressHydrationWarning
          className="order-last mt-0.5 text-xs whitespace-nowrap text-slate-500 sm:order-none sm:mt-1 sm:text-right"
        >
          {formatActivityTime(item.timestamp, now, timeZone)}
        </time>
        <p className="mt-0.5 text-sm break-words text-slate-600 sm:col-span-2">
          {item.description}
          {item.description !== item.projectTitle ? <span className="text-slate-500"> · {item.projectTitle}</span> : null}
        </p>
      </div>
    </li>
  );
}
