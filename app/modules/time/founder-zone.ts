import { localParts } from "./zoned-slots";
import { HOUR_MS } from "./units";

/**
 * The founder's clock (decision 53): every date and day or hour bucket a founder sees is in the time zone kept on
 * the account. Pure functions of instants and a zone name, so the server, the browser and the tests agree.
 */

/** What an account without a zone of its own is shown in, until the founder picks one (or the browser's is saved). */
export const FALLBACK_TIME_ZONE = "UTC";

const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * Older ICU (Node 20's) lists some zones under names IANA has since replaced; a founder looks for the current one
 * ('Kolkata', 'Kyiv'), which is also what today's browsers send. Both names are accepted; the list shows the new one.
 */
const RENAMED: Record<string, string> = {
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Asia/Rangoon": "Asia/Yangon",
  "Europe/Kiev": "Europe/Kyiv",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "America/Godthab": "America/Nuuk",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
  "Pacific/Enderbury": "Pacific/Kanton",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Louisville": "America/Kentucky/Louisville",
};

let supported: Set<string> | null = null;
let choices: string[] | null = null;

/** The runtime's IANA zones (`Intl.supportedValuesOf('timeZone')`) plus 'UTC', under their current names, sorted. */
export function timeZoneChoices(): string[] {
  supported ??= new Set(["UTC", ...Intl.supportedValuesOf("timeZone")]);
  choices ??= [...supported].map((zone) => (RENAMED[zone] && runtimeAccepts(RENAMED[zone]) ? RENAMED[zone] : zone)).sort();
  return choices;
}

function runtimeAccepts(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone name to keep, or null when it is not one. A browser sends names this runtime may spell differently
 * (Chrome's 'Asia/Kolkata' is Node's 'Asia/Calcutta'): a name counts when the runtime accepts it and its canonical
 * form is on the IANA list, or is UTC or a fixed 'Etc/GMT±N' zone (neither is on the list). The name is kept as sent,
 * or under its current name when IANA renamed it ('Asia/Calcutta' is kept as 'Asia/Kolkata').
 */
export function acceptedTimeZone(name: unknown): string | null {
  if (typeof name !== "string") return null;
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 64) return null;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat("en-US", { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  timeZoneChoices();
  const known = supported!.has(canonical) || supported!.has(trimmed) || /^Etc\/GMT[+-]\d{1,2}$/.test(canonical);
  if (!known) return null;
  const renamed = RENAMED[trimmed];
  return renamed && runtimeAccepts(renamed) ? renamed : trimmed;
}

/** The zone to show an account's dates in: its own, or UTC. */
export function founderTimeZone(stored: string | null | undefined): string {
  return (stored && acceptedTimeZone(stored)) ?? FALLBACK_TIME_ZONE;
}

function sameDay(a: ReturnType<typeof localParts>, year: number, month: number, day: number): boolean {
  return a.year === year && a.month === month && a.day === day;
}

/** The first instant of the zone's calendar day that contains `ms` (23, 24 or 25 hours long, or 23.5 and so on). */
export function zonedDayStart(ms: number, timeZone: string): number {
  const local = localParts(new Date(ms), timeZone);
  const offset = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second) - Math.floor(ms / 1000) * 1000;
  // Midnight at the offset in force now; offsets change by whole quarter hours, so a change since midnight is
  // undone a quarter hour at a time: forward while it lands on yesterday, back while the quarter before is today.
  const isToday = (at: number) => sameDay(localParts(new Date(at), timeZone), local.year, local.month, local.day);
  let start = Date.UTC(local.year, local.month - 1, local.day) - offset;
  while (start < ms && !isToday(start)) start += QUARTER_HOUR_MS;
  while (isToday(start - QUARTER_HOUR_MS)) start -= QUARTER_HOUR_MS;
  return start;
}

/** The first instant of the zone's wall-clock hour that contains `ms` (exact in half-hour and 45-minute zones). */
export function zonedHourStart(ms: number, timeZone: string): number {
  const local = localParts(new Date(ms), timeZone);
  return ms - (ms % 1000 + 1000) % 1000 - (local.minute * 60 + local.second) * 1000;
}

/** The zone's day starts from the day holding `fromMs` to the one holding `toMs`, oldest first. */
export function zonedDayStarts(fromMs: number, toMs: number, timeZone: string): number[] {
  const starts: number[] = [];
  const last = zonedDayStart(toMs, timeZone);
  for (let at = zonedDayStart(fromMs, timeZone); at <= last; at = zonedDayStart(at + 26 * HOUR_MS, timeZone)) starts.push(at);
  return starts;
}

/** The zone's hour starts from the hour holding `fromMs` to the one holding `toMs`, oldest first (a repeated 1 AM is two). */
export function zonedHourStarts(fromMs: number, toMs: number, timeZone: string): number[] {
  const starts: number[] = [];
  const last = zonedHourStart(toMs, timeZone);
  for (let at = zonedHourStart(fromMs, timeZone); at <= last; at = zonedHourStart(at + HOUR_MS + QUARTER_HOUR_MS, timeZone)) starts.push(at);
  return starts;
}

/** The index of the bucket holding `ms` among sorted bucket starts (-1 before the first). */
export function bucketIndex(starts: number[], ms: number): number {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (starts[mid]! <= ms) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}
