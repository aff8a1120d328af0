/**
 * Dates and times as founders read them (decision 53): English month names, always in the given zone (the
 * founder's, from the account). The one formatting path for founder screens, their CSV's extra columns and their
 * e-mails; pure, so the server render, the browser and the tests agree.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(options: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat {
  const key = `${JSON.stringify(options)}|${timeZone}`;
  let formatter = formats.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
    formats.set(key, formatter);
  }
  return formatter;
}

function instant(value: string | number): number {
  return typeof value === "number" ? value : Date.parse(value);
}

function formatted(value: string | number, options: Intl.DateTimeFormatOptions, timeZone: string): string {
  const ms = instant(value);
  return Number.isFinite(ms) ? format(options, timeZone).format(ms) : "";
}

/** '3 PM' */
export function formatFounderHour(value: string | number, timeZone: string): string {
  return formatted(value, { hour: "numeric" }, timeZone);
}

/** 'Mar 5' */
export function formatFounderDay(value: string | number, timeZone: string): string {
  return formatted(value, { month: "short", day: "numeric" }, timeZone);
}

/** 'Mar 5, 3 PM' */
export function formatFounderDayHour(value: string | number, timeZone: string): string {
  return formatted(value, { month: "short", day: "numeric", hour: "numeric" }, timeZone);
}

/** 'Mar 5, 2026'; '' for an unreadable time. */
export function formatFounderDate(value: string | number, timeZone: string): string {
  return formatted(value, { month: "short", day: "numeric", year: "numeric" }, timeZone);
}

/** 'Mar 5, 2026, 3:04 PM'; '' for an unreadable time. */
export function formatFounderDateTime(value: string | number, timeZone: string): string {
  return formatted(value, { dateStyle: "medium", timeStyle: "short" }, timeZone);
}

/** 'UTC+5:30', 'UTC−7', 'UTC' : the zone's offset at `ms`, for naming a zone beside its name. */
export function formatUtcOffset(ms: number, timeZone: string): string {
  const name = format({ timeZoneName: "shortOffset" }, timeZone)
    .formatToParts(ms)
    .find((part) => part.type === "timeZoneName")?.value;
  return name === "GMT" || !name ? "UTC" : name.replace("GMT", "UTC");
}
