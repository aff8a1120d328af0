import { pluralWord } from "~/modules/formats/counts";

/** What one person read of the project's deck (decision 99), over all their views of it. */
export type LeadReading = {
  /** The deck's pages, and how many of them this person spent any time on. */
  pageCount: number;
  pagesRead: number;
  /** Milliseconds counted in all, and per page (index 0 is page 1). */
  ms: number;
  perPage: number[];
  /** The page they spent longest on (from 1); null when they read none. */
  longestPage: number | null;
};

/** "3 min 12 s", "45 s", "1 h 2 min": reading time as the founder reads it. */
export function readingTimeText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "Read 9 of 14 pages · 3 min 12 s · longest on page 7". */
export function leadReadingText(reading: LeadReading): string {
  const parts = [`Read ${reading.pagesRead} of ${reading.pageCount} ${pluralWord(reading.pageCount, "page")}`, readingTimeText(reading.ms)];
  if (reading.longestPage && reading.pagesRead > 1) parts.push(`longest on page ${reading.longestPage}`);
  return parts.join(" · ");
}

/** A reading that suggests the lead is hot: most of the deck read (at least two thirds of its pages). */
export function suggestsHot(reading: LeadReading): boolean {
  return reading.pageCount > 0 && reading.pagesRead * 3 >= reading.pageCount * 2;
}
