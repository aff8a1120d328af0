/**
 * What the booth screen shows of what just happened (decision 35): lines anyone walking past may
 * read, so never an e-mail address and never a full name, only a first name and the last name's initial.
 */

export type TickerItem =
  | { id: string; kind: "scan"; at: string; count: number; eventLabel: string | null }
  /** `name` is already short (`shortName`) when it leaves the server: a booth device never receives a full name. */
  | { id: string; kind: "intro"; at: string; name: string }
  | { id: string; kind: "signal"; at: string; tier: string };

/** "Ana Karenina" → "Ana K.", "ana" → "Ana", "  " → "Someone". */
export function shortName(fullName: string): string {
  const words = fullName.trim().split(/\s+/u).filter(Boolean);
  const first = words[0];
  if (!first) return "Someone";
  const capitalised = first.charAt(0).toLocaleUpperCase() + first.slice(1);
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const initial = last ? [...last][0]?.toLocaleUpperCase() : undefined;
  return initial ? `${capitalised} ${initial}.` : capitalised;
}

export function tickerLine(item: TickerItem): string {
  switch (item.kind) {
    case "scan": {
      const who = item.count === 1 ? "Someone just scanned" : `${item.count} scans just now`;
      return item.eventLabel ? `${who} · ${item.eventLabel}` : who;
    }
    case "intro":
      return `${item.name} requested an intro`;
    case "signal":
      return `New signal: ${item.tier}`;
  }
}

const HOUR_MS = 3_600_000;
/** A day start further back than this is not "today" on any clock (UTC-12 to UTC+14, plus the hour it is floored to). */
const OLDEST_DAY_START_MS = 27 * HOUR_MS;

/**
 * Where "today" starts for the booth's counters: the booth device's local midnight (sent as an instant), floored to
 * the hour because scans are counted in hourly buckets, so every counter covers the same window. A missing or
 * implausible value means the UTC day.
 */
export function todayStart(sent: string | null, now: Date): Date {
  const utcMidnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const instant = sent ? Date.parse(sent) : NaN;
  const plausible = Number.isFinite(instant) && instant <= now.getTime() && now.getTime() - instant < OLDEST_DAY_START_MS;
  const start = plausible ? instant : utcMidnight.getTime();
  return new Date(Math.floor(start / HOUR_MS) * HOUR_MS);
}
