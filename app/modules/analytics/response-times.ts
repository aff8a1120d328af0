import { HOUR_MS } from "~/modules/time/units";
/**
 * The response clock per event (decision 55): of the people who came through each source, how many
 * the founder answered within an hour and within a day, and the median time to an answer.
 */

const DAY = 24 * HOUR_MS;

/**
 * One lead as the clock sees it: where they came from, since when they wait (their first action, or when the
 * founder marked a person met in person as awaiting a follow-up), the founder's first answer. A person only met in
 * person, who waits for nobody, is not one (decision 84).
 */
export type LeadClock = { source: string; awaitingSince: string; firstResponseAt: string | null };

/** A share whose outcome is known: `answered` of `of` leads (the others are over the mark, or waiting past it). */
export type KnownShare = { answered: number; of: number };

export type ResponseTimes = {
  source: string;
  /** People whose first action came through the source. */
  leads: number;
  /** Of the leads answered, or unanswered for longer than an hour, those answered within the hour. */
  withinHour: KnownShare;
  /** The same for 24 hours. */
  withinDay: KnownShare;
  /** Still waiting now. */
  waiting: number;
  /** The median time to a first answer of those answered; null when no one is. */
  medianMs: number | null;
};

/**
 * Per source, in first-seen order of the sources' first leads. A lead still waiting counts against a mark only once
 * the mark has passed: someone who wrote ten minutes ago is not yet late, nor already answered in time.
 */
export function summariseResponseTimes(leads: readonly LeadClock[], now: Date): ResponseTimes[] {
  const bySource = new Map<string, { leads: number; hour: KnownShare; day: KnownShare; waiting: number; waits: number[] }>();
  for (const lead of leads) {
    let entry = bySource.get(lead.source);
    if (!entry) {
      entry = { leads: 0, hour: { answered: 0, of: 0 }, day: { answered: 0, of: 0 }, waiting: 0, waits: [] };
      bySource.set(lead.source, entry);
    }
    entry.leads += 1;
    const seen = Date.parse(lead.awaitingSince);
    const answeredAfter = lead.firstResponseAt === null ? null : Math.max(0, Date.parse(lead.firstResponseAt) - seen);
    if (answeredAfter === null) entry.waiting += 1;
    else entry.waits.push(answeredAfter);
    const waitedSoFar = answeredAfter ?? now.getTime() - seen;
    for (const [share, mark] of [[entry.hour, HOUR_MS], [entry.day, DAY]] as const) {
      if (answeredAfter !== null && answeredAfter <= mark) {
        share.answered += 1;
        share.of += 1;
      } else if (waitedSoFar > mark) share.of += 1;
    }
  }
  return [...bySource].map(([source, entry]) => ({
    source,
    leads: entry.leads,
    withinHour: entry.hour,
    withinDay: entry.day,
    waiting: entry.waiting,
    medianMs: median(entry.waits),
  }));
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
