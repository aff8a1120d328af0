/**
 * How deck reading is counted (decision 99), shared by the reader's clock on the phone and the server that records
 * its beats. Browser-safe: no imports.
 */

/** A page's time stops this long after the reader's last touch, scroll, key or swipe (or after the page came into view). */
export const READING_IDLE_MS = 30_000;
/** How often an open reader sends what it counted. */
export const BEAT_INTERVAL_MS = 10_000;
/** The reader counts only while at least this share of it is on screen. */
export const READER_VISIBLE_SHARE = 0.5;

/** The longest stretch of the reader's clock one beat may cover. */
export const BEAT_MAX_SPAN_MS = 120_000;
/** A view's clock runs at most this long: a beat from later is refused. */
export const VIEW_MAX_AGE_MS = 12 * 3_600_000;
/** Beats one request may carry (a phone sends what it kept offline at once). */
export const BEATS_PER_REQUEST = 50;
/** Time segments one beat may carry. */
export const SEGMENTS_PER_BEAT = 40;
/** Requests per viewer (or per address, for a browser without a cookie) per minute; past it, 429. */
export const READING_REQUESTS_PER_MINUTE = 30;

/** One stretch of counted time on one page, on the view's clock (ms since the reader opened): `[page, from, to]`. */
export type ReadingSegment = [page: number, from: number, to: number];

/** What the reader sends: one beat of one view. `age` is the view's clock when the beat was made. */
export type DeckBeat = {
  project: string;
  deck: string;
  view: string;
  seq: number;
  age: number;
  /** The `?qr=` code of the page the deck was read on, if any: the visit it belongs to. */
  qr: string | null;
  segments: ReadingSegment[];
};

/** The beats endpoint. */
export const DECK_READING_PATH = "/api/deck-reading";

/** The founder's "How we count" sentence for reading. */
export const READING_HOW_WE_COUNT =
  "A deck page's time runs only while it is the page shown, the reader is at least half on screen, the tab is visible and the visitor touched, scrolled or pressed a key in the last 30 seconds (a page's first 30 seconds count without), and each stretch of time counts once, however often the phone sends it; your team and bots are not counted.";
