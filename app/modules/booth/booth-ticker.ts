/**
 * What the booth screen shows of what just happened (decision 35): lines anyone walking past may read, so only what
 * the Recognition Wall may show (decision 84). Never an e-mail address; a name (a first name and the last name's
 * initial) and a signal's tier only for a signal whose visitor chose 'Show my name'; an intro, which asks for no such
 * choice, is "Someone".
 */

export type TickerItem =
  | { id: string; kind: "scan"; at: string; count: number; eventLabel: string | null }
  | { id: string; kind: "intro"; at: string }
  /**
   * `shown` only when the visitor chose 'Show my name' (the wall shows them with the tier); its name is already short
   * (`shortName`) when it leaves the server, so a booth device never receives a full name or a private tier.
   */
  | { id: string; kind: "signal"; at: string; shown: { name: string; tier: string } | null };

/** "Ana Karenina" → "Ana K.", "ana" → "Ana", "  " → "Someone". */
export function shortName(fullName: string): string {
  const words = fullName.trim().split(/\s+/u).filter(Boolean);
  const first = words[0];
  if (!first) return "Someone";
  const capitalised = first.charAt(0).toLocaleUpperCase() + first.slice(1);
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const initial = last ? [...last][0]?.toLocaleUpperCase() : undefined;
  return initial ? `${capitalised} ${initial}.` : capitalised;
}

export function tickerLine(item: TickerItem): string {
  switch (item.kind) {
    case "scan": {
      const who = item.count === 1 ? "Someone just scanned" : `${item.count} scans just now`;
      return item.eventLabel ? `${who} — ${item.eventLabel}` : who;
    }
    case "intro":
      return "Someone requested an intro";
    case "signal":
      return item.shown ? `New signal from ${item.shown.name}: ${item.shown.tier}` : "New signal";
  }
}

/**
 * Rows commit a moment after the time they carry (a scan batch stamps its rows before it writes them), so each read of
 * the ticker looks this far back before the newest item sent, and what was sent is remembered that long.
 */
export const TICKER_OVERLAP_MS = 5_000;

/**
 * What one booth stream has sent of the ticker, so reads of overlapping windows (its own, and its project's shared
 * feed's) send each intro and signal once and each scan once: a scan group read again with more scans sends only
 * the new ones, under an id of its own. Nothing at or before `cursor` (what the device had before it reconnected)
 * is sent, nor anything older than the remembered window.
 */
export class TickerTracker {
  readonly #sent = new Map<string, { at: string; count: number }>();
  #newest: string | null;

  constructor(private readonly cursor: string | null) {
    this.#newest = cursor;
  }

  /** The newest instant sent: the stream's resume cursor. */
  get newest(): string | null {
    return this.#newest;
  }

  /** Where the next read of this stream's own should start. */
  readFrom(dayStart: Date): string {
    return this.#newest ? new Date(Date.parse(this.#newest) - TICKER_OVERLAP_MS).toISOString() : dayStart.toISOString();
  }

  /** The items of a read (oldest first) this stream has not sent yet, to send now. */
  fresh(items: readonly TickerItem[]): TickerItem[] {
    const floor = this.#newest ? Date.parse(this.#newest) - TICKER_OVERLAP_MS : -Infinity;
    const fresh: TickerItem[] = [];
    for (const item of items) {
      if ((this.cursor !== null && item.at <= this.cursor) || Date.parse(item.at) < floor) continue;
      const sent = this.#sent.get(item.id);
      if (item.kind === "scan") {
        const before = sent?.count ?? 0;
        if (item.count <= before) continue;
        this.#sent.set(item.id, { at: item.at, count: item.count });
        fresh.push(before === 0 ? item : { ...item, id: `${item.id}+${before}`, count: item.count - before });
      } else {
        if (sent) continue;
        this.#sent.set(item.id, { at: item.at, count: 1 });
        fresh.push(item);
      }
      if (!this.#newest || item.at > this.#newest) this.#newest = item.at;
    }
    if (this.#newest) {
      const forgetBefore = Date.parse(this.#newest) - TICKER_OVERLAP_MS;
      for (const [id, { at }] of this.#sent) if (Date.parse(at) < forgetBefore) this.#sent.delete(id);
    }
    return fresh;
  }
}
