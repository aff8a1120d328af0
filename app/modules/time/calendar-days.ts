import { DAY_MS } from "./units";
import { zonedInstant } from "./zoned-slots";

/** The calendar day `days` after `day` ('YYYY-MM-DD'). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** When `day` begins on the zone's clock (a midnight the clock skips begins when the clock resumes). */
export function startOfDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return zonedInstant(year, month, date, 0, 0, timeZone);
}
