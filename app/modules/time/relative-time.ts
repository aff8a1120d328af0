/**
 * Relative times. Pure functions of the entry time and "now", so the server render,
 * the browser and the tests agree on the same inputs.
 */

import { formatFounderDate } from "./founder-dates";
import { pluralWord } from "~/modules/formats/counts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function plural(n: number, unit: string): string {
  return `${n} ${pluralWord(n, unit)} ago`;
}

/** Milliseconds from `iso` to `now`; a time slightly in the future (clock skew) counts as now. */
function elapsed(iso: string, now: Date): number | null {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return null;
  return Math.max(0, now.getTime() - time);
}

/**
 * What both feeds say for the last 7 days ('just now', then whole minutes, hours, days, rounded down), "" for a
 * time that is not one, or null from 7 days on, where each shows a date of its own.
 */
function withinAWeek(iso: string, now: Date): string | null {
  const ms = elapsed(iso, now);
  if (ms === null) return "";
  if (ms < MINUTE) return "just now";
  if (ms < HOUR) return plural(Math.floor(ms / MINUTE), "minute");
  if (ms < DAY) return plural(Math.floor(ms / HOUR), "hour");
  if (ms < 7 * DAY) return plural(Math.floor(ms / DAY), "day");
  return null;
}

const pitchDateFormats = new Map<string, Intl.DateTimeFormat>();

/** 'Nov 3, 2026' in English month names, in the given time zone (the viewer's own when omitted). */
function pitchDate(date: Date, timeZone: string | undefined): string {
  const key = timeZone ?? "";
  let format = pitchDateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone });
    pitchDateFormats.set(key, format);
  }
  return format.format(date);
}

/**
 * The pitch page's Recognition Wall: under 60 minutes '{n} minute(s) ago' (0 minutes: 'just now'),
 * under 24 hours '{n} hour(s) ago', under 7 days '{n} day(s) ago', otherwise the date ('Nov 3, 2026').
 * Units are whole and rounded down: 119 minutes is '1 hour ago'.
 */
export function formatPitchTime(iso: string, now: Date, timeZone?: string): string {
  return withinAWeek(iso, now) ?? pitchDate(new Date(iso), timeZone);
}

/** A day on the pitch page ('Nov 3, 2026'), the same on the server and in every browser: UTC's calendar. */
export function formatPitchDay(iso: string): string {
  return pitchDate(new Date(iso), "UTC");
}

/**
 * The founder's activity feed: 'just now' under 1 minute, then '{n} minute(s) ago', '{n} hour(s) ago',
 * '{n} day(s) ago'; 7 days or more shows the date on the founder's clock ('Nov 3, 2026', decision 53).
 */
export function formatActivityTime(iso: string, now: Date, timeZone: string): string {
  return withinAWeek(iso, now) ?? formatFounderDate(iso, timeZone);
}

/**
 * How long a lead waited, or has waited, for the founder's first response: '0 min' to '59 min', then
 * '{h} h' or '{h} h {m} min' under two days, then '{n} days'. Whole units, rounded down.
 */
export function formatWaitDuration(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / MINUTE);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) {
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return rest ? `${hours} h ${rest} min` : `${hours} h`;
  }
  return `${Math.floor(minutes / (24 * 60))} days`;
}
