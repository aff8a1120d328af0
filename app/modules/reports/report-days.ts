import { addDays, startOfDay } from "~/modules/time/calendar-days";
import { latestDailySlot } from "~/modules/time/zoned-slots";

export type ReportKind = "day" | "week";

/** A report due for a project: the founder-local day it is about, and the instants its period spans. */
export type DueReport = { kind: ReportKind; day: string; from: Date; to: Date };

/**
 * The reports a project whose owner lives in `timeZone` may be due at `now` (decision 66): at the latest
 * `hour`-o'clock that is not after `now` on the owner's clock, on local day S, the morning-after report on day S-1,
 * and the week report on day S-8, covering S-8 to S-1. Only the latest slot counts: a server that was down catches
 * up once and never replays older days.
 */
export function dueReports(now: Date, hour: number, timeZone: string): DueReport[] {
  const slot = latestDailySlot(now, hour, timeZone).slot;
  const yesterday = addDays(slot, -1);
  const weekDay = addDays(slot, -8);
  return [
    { kind: "day", day: yesterday, from: startOfDay(yesterday, timeZone), to: startOfDay(slot, timeZone) },
    { kind: "week", day: weekDay, from: startOfDay(weekDay, timeZone), to: startOfDay(slot, timeZone) },
  ];
}

// A day name is a calendar day: formatted in UTC, it reads the same in every zone.
const PERIOD_DAY = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "long", month: "long", day: "numeric" });
const PERIOD_DATE = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "long", day: "numeric" });

/** The period a report covers, as its e-mail names it. */
export function periodOf(report: DueReport): string {
  const first = Date.parse(`${report.day}T00:00:00.000Z`);
  if (report.kind === "day") return PERIOD_DAY.format(first);
  return `${PERIOD_DATE.format(first)} to ${PERIOD_DATE.format(Date.parse(`${addDays(report.day, 7)}T00:00:00.000Z`))}`;
}
