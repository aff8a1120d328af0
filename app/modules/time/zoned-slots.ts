/**
 * The weekly digest's schedule: Friday at a configured hour in a configured time zone. A slot is named by the
 * local date of its Friday ('2026-11-20'), which is what several instances agree on.
 */
export type DigestSlot = { slot: string; at: Date };

export const DIGEST_WEEKDAY = 5; // Friday, as in JavaScript's getUTCDay

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's wall clock at `date`: year, month (1-12), day, hour (0-23), minute, second. */
export function localParts(date: Date, timeZone: string) {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** How far the zone's wall clock is ahead of UTC at `date`, in milliseconds. */
export function zoneOffsetMs(date: Date, timeZone: string): number {
  const p = localParts(date, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(date.getTime() / 1000) * 1000;
}

/** The instant when the zone's wall clock reads the given date at `hour`:00. */
function zonedHour(year: number, month: number, day: number, hour: number, timeZone: string): Date {
  return zonedInstant(year, month, day, hour, 0, timeZone);
}

/**
 * The instant when the zone's wall clock reads the given date and time (month 1-12). A time the clock skips (a
 * spring-forward gap) lands the length of the gap later, as calendars read it.
 */
export function zonedInstant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let utc = wall - zoneOffsetMs(new Date(wall), timeZone);
  const corrected = zoneOffsetMs(new Date(utc), timeZone);
  if (wall - corrected !== utc) utc = wall - corrected;
  return new Date(utc);
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The latest Friday-at-`hour` in `timeZone` that is not after `now`. */
export function latestDigestSlot(now: Date, hour: number, timeZone: string): DigestSlot {
  const local = localParts(now, timeZone);
  const today = new Date(Date.UTC(local.year, local.month - 1, local.day));
  const daysBack = (today.getUTCDay() - DIGEST_WEEKDAY + 7) % 7;
  for (const extra of [0, 7]) {
    const friday = new Date(today.getTime() - (daysBack + extra) * 86_400_000);
    const at = zonedHour(friday.getUTCFullYear(), friday.getUTCMonth() + 1, friday.getUTCDate(), hour, timeZone);
    if (at.getTime() <= now.getTime()) return { slot: friday.toISOString().slice(0, 10), at };
  }
  throw new Error("unreachable: a Friday within two weeks always precedes now");
}

/** The latest day-at-`hour` in `timeZone` that is not after `now` (the founders' daily lead summary), named by its local date. */
export function latestDailySlot(now: Date, hour: number, timeZone: string): DigestSlot {
  const local = localParts(now, timeZone);
  const today = new Date(Date.UTC(local.year, local.month - 1, local.day));
  for (const back of [0, 1]) {
    const day = new Date(today.getTime() - back * 86_400_000);
    const at = zonedHour(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), hour, timeZone);
    if (at.getTime() <= now.getTime()) return { slot: day.toISOString().slice(0, 10), at };
  }
  throw new Error("unreachable: yesterday at that hour always precedes now");
}

/** The calendar day `YYYY-MM-DD` it is at `now` in `timeZone` (an event's end date is compared with it). */
export function zonedCalendarDay(now: Date, timeZone: string): string {
  const { year, month, day } = localParts(now, timeZone);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
