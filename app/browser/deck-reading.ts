import { BEAT_INTERVAL_MS, BEATS_PER_REQUEST, DECK_READING_PATH, READER_VISIBLE_SHARE, type DeckBeat } from "~/modules/deck-reading/reading-rules";
import { ReadingClock } from "./reading-clock";

/**
 * Reading time on the deck (decision 99), for both pitch renderers: the reader's clock, fed by the page in view,
 * the reader on screen, the tab's visibility and the visitor's input, sends what it counted as beats. Every beat
 * is kept on the phone until the server answers it, so a reader offline keeps their time and sends it once back
 * online (or on their next visit); the server counts each (view, sequence number) once.
 */

const QUEUE_KEY = "pitchqr-deck-beats";
/** The oldest kept beats make room past this (a phone offline for hours). */
const QUEUE_MAX = 600;
/**
 * What counts as the visitor acting. A scroll is not listened to: the visitor's own scrolls come with their wheel,
 * touch, key or pointer, and the strip's own (a page turned by a button, the snap settling) are no one's input.
 */
const INPUTS = ["pointerdown", "pointermove", "keydown", "wheel", "touchstart"] as const;

/** Where beats wait: the phone's storage, or this page's memory where storage is refused. */
const memoryQueue: DeckBeat[] = [];
function keptBeats(): DeckBeat[] {
  try {
    return JSON.parse(localStorage.getItem(QUEUE_KEY) ?? "[]") as DeckBeat[];
  } catch {
    return memoryQueue;
  }
}
function keepBeats(beats: DeckBeat[]) {
  try {
    localStorage.setItem(QUEUE_KEY, JSON.stringify(beats.slice(-QUEUE_MAX)));
  } catch {
    memoryQueue.splice(0, memoryQueue.length, ...beats.slice(-QUEUE_MAX));
  }
}
const sameBeat = (a: DeckBeat, b: DeckBeat) => a.view === b.view && a.seq === b.seq;
const beatsBody = (beats: DeckBeat[]) => JSON.stringify({ beats });

let sending = false;
/** Sends the kept beats, oldest first, until they are answered or the network fails; answered ones are forgotten. */
async function sendKeptBeats() {
  if (sending) return;
  sending = true;
  try {
    for (let batch = keptBeats().slice(0, BEATS_PER_REQUEST); batch.length; batch = keptBeats().slice(0, BEATS_PER_REQUEST)) {
      const answer = await fetch(DECK_READING_PATH, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: beatsBody(batch),
        credentials: "same-origin",
        keepalive: true,
      }).catch(() => null);
      // Offline, the server failing, or too many at once: kept for the next try.
      if (!answer || answer.status >= 500 || answer.status === 429) return;
      keepBeats(keptBeats().filter((kept) => !batch.some((sent) => sameBeat(kept, sent))));
    }
  } finally {
    sending = false;
  }
}

function randomViewId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export type DeckReading = { show(page: number): void; stop(): void };

/** Starts counting one view of the deck in `root` (the reader), for the project of the page it is on. */
export function startDeckReading(root: HTMLElement): DeckReading {
  const projectId = root.closest<HTMLElement>("[data-project-id]")?.dataset.projectId;
  const deckId = root.dataset.deckReader;
  if (!projectId || !deckId) return { show: () => undefined, stop: () => undefined };
  const view = randomViewId();
  const qr = new URLSearchParams(location.search).get("qr");
  const startedAt = performance.now();
  const now = () => performance.now() - startedAt;
  const clock = new ReadingClock();
  let seq = 0;
  let opened = false;

  /** Keeps what the clock counted as the next beat (the first, empty, says the deck is open) and sends the kept ones. */
  const beat = (final = false) => {
    const at = now();
    const segments = clock.take(at);
    const opening = !opened && (segments.length > 0 || clock.running(at));
    if (segments.length || opening) {
      opened = true;
      keepBeats([...keptBeats(), { project: projectId, deck: deckId, view, seq: seq++, age: Math.round(at), qr, segments }]);
    }
    if (!final) return void sendKeptBeats();
    // The page is going away: the browser sends what is kept after it; it stays kept until an answer is read.
    const kept = keptBeats();
    if (kept.length) navigator.sendBeacon?.(DECK_READING_PATH, new Blob([beatsBody(kept.slice(-BEATS_PER_REQUEST))], { type: "application/json" }));
  };
  const changed = (change: (at: number) => void) => {
    change(now());
    if (!opened && clock.running(now())) beat();
  };

  const abort = new AbortController();
  const options = { signal: abort.signal, passive: true, capture: true };
  for (const type of INPUTS) document.addEventListener(type, () => changed((at) => clock.input(at)), options);
  document.addEventListener(
    "visibilitychange",
    () => {
      const visible = document.visibilityState === "visible";
      changed((at) => clock.visible(visible, at));
      if (!visible) beat();
    },
    options,
  );
  addEventListener("pagehide", () => beat(true), options);
  addEventListener("online", () => void sendKeptBeats(), options);
  const onScreen = new IntersectionObserver(
    ([entry]) => {
      if (!entry) return;
      const seen = entry.intersectionRect.height;
      const share = Math.min(entry.boundingClientRect.height, entry.rootBounds?.height ?? innerHeight) * READER_VISIBLE_SHARE;
      changed((at) => clock.onScreen(entry.isIntersecting && seen >= share - 1, at));
    },
    { threshold: [0, 0.25, 0.5, 0.75, 1] },
  );
  onScreen.observe(root);
  changed((at) => clock.visible(document.visibilityState === "visible", at));
  const timer = setInterval(() => beat(), BEAT_INTERVAL_MS);
  // Beats kept from an earlier visit (or another tab) go now.
  void sendKeptBeats();

  return {
    show: (page) => changed((at) => clock.show(page, at)),
    stop: () => {
      beat();
      clearInterval(timer);
      onScreen.disconnect();
      abort.abort();
    },
  };
}
