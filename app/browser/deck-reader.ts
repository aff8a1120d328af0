/**
 * The deck reader on the pitch page, for both renderers (the React page calls it from `DeckReader`, the anonymous
 * page's script from `enhance.ts`). The markup alone is a strip of page images that scrolls sideways and snaps to
 * each page, so a swipe turns a page without any script; this adds the rest: the images of the pages after the first
 * on the anonymous page (drawn as the reader nears them from their `<noscript>`, which a browser without a script
 * shows as it is), Previous and Next, a tap on the left or right edge, the arrow, Page and Home/End keys, the "3 / 14"
 * counter and full screen, and it counts the reading time (`deck-reading.ts`). Returns what undoes it.
 */

import { startDeckReading } from "./deck-reading";

/** Draws a page whose image waits in `<noscript>` (the anonymous page has page 1's only): the server's own markup. */
function drawDeckPage(page: HTMLElement | undefined) {
  const markup = page?.querySelector("noscript")?.textContent;
  if (page && markup && !page.querySelector("img")) page.insertAdjacentHTML("beforeend", markup);
}

/** The share of the strip's width, at each side, that a tap turns the page back or on. */
const EDGE_SHARE = 0.25;

const PAGE_KEYS: Record<string, (current: number, last: number) => number> = {
  ArrowRight: (current) => current + 1,
  ArrowDown: (current) => current + 1,
  PageDown: (current) => current + 1,
  ArrowLeft: (current) => current - 1,
  ArrowUp: (current) => current - 1,
  PageUp: (current) => current - 1,
  Home: () => 0,
  End: (_, last) => last,
};

/** "3 / 14": the page in view (from 1) and the deck's length. */
export const deckCounterText = (page: number, pages: number) => `${page} / ${pages}`;

export function enhanceDeckReader(root: HTMLElement): () => void {
  const strip = root.querySelector<HTMLElement>("[data-deck-pages]");
  if (!strip) return () => undefined;
  const reading = startDeckReading(root);
  const pages = [...strip.querySelectorAll<HTMLElement>("[data-deck-page]")];
  const counter = root.querySelector<HTMLElement>("[data-deck-counter]");
  const buttons = (name: string) => [...root.querySelectorAll<HTMLButtonElement>(`[data-deck-${name}]`)];
  const [previous, next, fullScreen] = [buttons("previous"), buttons("next"), buttons("full-screen")];
  const abort = new AbortController();
  const on = <K extends keyof HTMLElementEventMap>(target: HTMLElement | Document, type: K, listener: (event: HTMLElementEventMap[K]) => void) =>
    target.addEventListener(type, listener as EventListener, { signal: abort.signal });
  let current = 0;

  const pageInView = () => (strip.clientWidth ? Math.round(strip.scrollLeft / strip.clientWidth) : 0);
  const show = (index: number) => {
    current = Math.max(0, Math.min(pages.length - 1, index));
    if (counter) counter.textContent = deckCounterText(current + 1, pages.length);
    for (const button of previous) button.disabled = current === 0;
    for (const button of next) button.disabled = current === pages.length - 1;
    // This page and the ones either side are drawn now, so a swipe never waits for them.
    for (const near of [current - 1, current, current + 1]) drawDeckPage(pages[near]);
    reading.show(current + 1);
  };
  const go = (index: number) => {
    const target = Math.max(0, Math.min(pages.length - 1, index));
    strip.scrollTo({ left: target * strip.clientWidth, behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
    show(target);
  };

  let frame = 0;
  on(strip, "scroll", () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => show(pageInView()));
  });
  on(strip, "click", (event) => {
    const box = strip.getBoundingClientRect();
    const x = (event.clientX - box.left) / box.width;
    if (x < EDGE_SHARE) go(current - 1);
    else if (x > 1 - EDGE_SHARE) go(current + 1);
  });
  on(strip, "keydown", (event) => {
    const move = PAGE_KEYS[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    go(move(current, pages.length - 1));
  });
  for (const button of previous) on(button, "click", () => go(current - 1));
  for (const button of next) on(button, "click", () => go(current + 1));

  // Full screen where the browser allows an element to be (not an iPhone's Safari): otherwise the reader covers the
  // window, and the same button or Escape brings it back.
  const isFullScreen = () => root.dataset.fullScreen === "true";
  const setFullScreen = (on: boolean) => {
    const keep = current;
    if (on) root.dataset.fullScreen = "true";
    else delete root.dataset.fullScreen;
    for (const button of fullScreen) {
      button.setAttribute("aria-pressed", String(on));
      const label = button.querySelector("[data-deck-full-screen-label]");
      if (label) label.textContent = on ? "Exit full screen" : "Full screen";
    }
    requestAnimationFrame(() => strip.scrollTo({ left: keep * strip.clientWidth }));
  };
  for (const button of fullScreen) {
    on(button, "click", () => {
      if (document.fullscreenElement === root) return void document.exitFullscreen();
      if (isFullScreen()) return setFullScreen(false);
      if (root.requestFullscreen && document.fullscreenEnabled) {
        root.requestFullscreen().catch(() => setFullScreen(true));
      } else setFullScreen(true);
      strip.focus({ preventScroll: true });
    });
  }
  on(document, "fullscreenchange", () => setFullScreen(document.fullscreenElement === root));
  on(document, "keydown", (event) => {
    if (event.key === "Escape" && isFullScreen() && !document.fullscreenElement) setFullScreen(false);
  });

  for (const control of root.querySelectorAll<HTMLElement>("[data-deck-control]")) control.hidden = false;
  for (const hint of root.querySelectorAll<HTMLElement>("[data-deck-no-script]")) hint.hidden = true;
  show(pageInView());
  return () => {
    abort.abort();
    cancelAnimationFrame(frame);
    reading.stop();
  };
}
