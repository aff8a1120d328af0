import { READING_IDLE_MS, type ReadingSegment } from "~/modules/deck-reading/reading-rules";

/**
 * The deck reader's clock (decision 99), fed with what happens and asked for what it counted. Time runs only while
 * a page is shown, the reader is on screen, the tab is visible and the reader acted within `READING_IDLE_MS` (the
 * first page's first stretch of that length counts without input, a page turned by the visitor counts from their
 * input, and so does the tab coming back): then it stops at
 * that moment exactly, however late anyone looks. Times are the view's own clock, in milliseconds.
 */
export class ReadingClock {
  #page = 0;
  #onScreen = false;
  #visible = false;
  /** The latest of: the reader's last input, the page coming into view, the tab coming back. */
  #activeAt = Number.NEGATIVE_INFINITY;
  /** Where the running stretch began; null while the clock stands. */
  #runningFrom: number | null = null;
  #segments: ReadingSegment[] = [];

  /** Whether time is counting now. */
  running(at: number): boolean {
    return this.#runningFrom !== null && at < this.#activeAt + READING_IDLE_MS;
  }

  /**
   * The page in view (from 1). The first page shown starts the idle allowance; a later page turned by the visitor
   * comes with their touch, key or swipe, which gives it its own, while the strip settling on a page by itself
   * (a snap, a layout) is no one's input and gives none.
   */
  show(page: number, at: number) {
    if (page === this.#page) return;
    this.#change(at, () => {
      if (this.#page === 0) this.#activeAt = at;
      this.#page = page;
    });
  }

  /** At least half the reader on screen, or less. */
  onScreen(on: boolean, at: number) {
    if (on !== this.#onScreen) this.#change(at, () => (this.#onScreen = on));
  }

  /** The tab visible or hidden; coming back counts as the reader acting. */
  visible(on: boolean, at: number) {
    if (on === this.#visible) return;
    this.#change(at, () => {
      this.#visible = on;
      if (on) this.#activeAt = at;
    });
  }

  /** A touch, scroll, key or swipe. */
  input(at: number) {
    this.#change(at, () => (this.#activeAt = at));
  }

  /** What was counted since the last call, in order; the clock runs on. */
  take(at: number): ReadingSegment[] {
    this.#change(at, () => undefined);
    const taken = this.#segments;
    this.#segments = [];
    return taken;
  }

  #change(at: number, apply: () => void) {
    if (this.#runningFrom !== null) {
      const end = Math.min(at, this.#activeAt + READING_IDLE_MS);
      const from = Math.round(this.#runningFrom);
      const to = Math.round(end);
      if (to > from) this.#push([this.#page, from, to]);
      this.#runningFrom = null;
    }
    apply();
    if (this.#page > 0 && this.#onScreen && this.#visible && at < this.#activeAt + READING_IDLE_MS) this.#runningFrom = at;
  }

  /** Adds a stretch, joined to the last one when it is the same page and follows on at once. */
  #push(segment: ReadingSegment) {
    const last = this.#segments[this.#segments.length - 1];
    if (last && last[0] === segment[0] && last[2] === segment[1]) last[2] = segment[2];
    else this.#segments.push(segment);
  }
}
