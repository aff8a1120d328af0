import { ChevronLeft, ChevronRight, Download, Maximize } from "lucide-react";
import { useEffect, useRef } from "react";
import { enhanceDeckReader } from "~/browser/deck-reader";
import type { PitchDeck, PitchDeckPage } from "~/modules/deck/pitch-deck.server";
import { pluralWord } from "~/modules/formats/counts";

/**
 * The images are as wide as the section's card: the full phone width less the page's margins, and at most the
 * card's 1,118 px on a desktop, so a 412 px phone at 2.6x takes the 1080 px image and a desktop the 1600 px one.
 */
export const DECK_IMAGE_SIZES = "(min-width: 1152px) 1118px, calc(100vw - 2rem - 2px)";
const DECK_IMAGE_CLASS =
  "h-auto max-h-[80vh] w-full object-contain md:max-h-[70vh] select-none group-data-[full-screen=true]:max-h-full group-data-[full-screen=true]:h-full";

/** A page's alternative text: the text on it, or its number for a page of pictures only. */
const deckPageAlt = (text: string, page: number) => text || `Page ${page}`;

/** A page's image: WebP at each width, the JPEG for a browser without WebP. */
function DeckPageImage({ page }: { page: PitchDeckPage }) {
  return (
    <picture className="contents">
      <source type="image/webp" srcSet={page.srcset} sizes={DECK_IMAGE_SIZES} />
      <img
        src={page.fallback}
        width={page.width}
        height={page.height}
        alt={deckPageAlt(page.text, page.number)}
        loading={page.number === 1 ? "eager" : "lazy"}
        decoding="async"
        className={DECK_IMAGE_CLASS}
        draggable={false}
      />
    </picture>
  );
}

const controlClass =
  "inline-flex size-11 items-center justify-center rounded-full bg-white text-slate-900 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-40 group-data-[full-screen=true]:bg-slate-800 group-data-[full-screen=true]:text-white group-data-[full-screen=true]:hover:bg-slate-700 group-data-[full-screen=true]:ring-slate-600";

/**
 * The uploaded deck, read in place: a strip of pages that scrolls sideways and snaps to each one (a swipe turns
 * the page without any script; without one, every page is there to scroll through). Page 1 loads with the page,
 * the others when the reader nears them; every image has its width and height, so nothing moves as they arrive.
 * The controls (`app/browser/deck-reader.ts`) are the same in both renderers.
 */
export function DeckReader({ deck, title, lazyPages }: { deck: PitchDeck; title: string; lazyPages: boolean }) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => (root.current ? enhanceDeckReader(root.current) : undefined), [deck.id]);
  const count = deck.pages.length;
  return (
    <div
      ref={root}
      data-deck-reader={deck.id}
      className="group relative bg-slate-100 data-[full-screen=true]:fixed data-[full-screen=true]:inset-0 data-[full-screen=true]:z-50 data-[full-screen=true]:flex data-[full-screen=true]:flex-col data-[full-screen=true]:bg-slate-950"
    >
      <ol
        data-deck-pages
        tabIndex={0}
        aria-label={`${title}: pitch deck, ${count} ${pluralWord(count, "page")}`}
        className="flex snap-x snap-mandatory overflow-x-auto overscroll-x-contain [scrollbar-width:thin] focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600 group-data-[full-screen=true]:min-h-0 group-data-[full-screen=true]:flex-1"
      >
        {deck.pages.map((page) => (
          <li
            key={page.number}
            id={`deck-page-${page.number}`}
            data-deck-page={page.number}
            aria-label={`Page ${page.number} of ${count}`}
            className="flex w-full shrink-0 snap-center snap-always items-center justify-center"
          >
            {/* The anonymous page has page 1's image; the others wait in <noscript> (shown as they are without a
                script), for the reader to draw as it nears them: a visitor who never reads on loads one image. */}
            {page.number === 1 || !lazyPages ? (
              <DeckPageImage page={page} />
            ) : (
              <noscript>
                <DeckPageImage page={page} />
              </noscript>
            )}
          </li>
        ))}
      </ol>
      <div className="flex min-h-14 items-center justify-between gap-2 border-t border-slate-200 bg-white px-3 py-1.5 group-data-[full-screen=true]:border-slate-800 group-data-[full-screen=true]:bg-slate-950">
        <p data-deck-no-script className="text-sm text-slate-600">
          {count} {pluralWord(count, "page")}: swipe or scroll sideways to read.
        </p>
        <div data-deck-control hidden className="flex items-center gap-2">
          <button type="button" data-deck-previous className={controlClass} aria-label="Previous page">
            <ChevronLeft aria-hidden className="size-5" />
          </button>
          <span data-deck-counter aria-live="polite" className="min-w-14 text-center text-sm font-semibold tabular-nums text-slate-900 group-data-[full-screen=true]:text-white" />
          <button type="button" data-deck-next className={controlClass} aria-label="Next page">
            <ChevronRight aria-hidden className="size-5" />
          </button>
        </div>
        <div className="flex items-center gap-2">
          {deck.download ? (
            <a href={deck.download} download className="inline-flex h-11 items-center gap-1.5 rounded-full px-3 text-sm font-semibold text-slate-700 hover:text-slate-950 group-data-[full-screen=true]:text-slate-200">
              <Download aria-hidden className="size-4" />
              PDF
            </a>
          ) : null}
          <button type="button" data-deck-control data-deck-full-screen hidden aria-pressed="false" className={`${controlClass} w-auto gap-1.5 px-3`}>
            <Maximize aria-hidden className="size-4" />
            <span data-deck-full-screen-label className="text-sm font-semibold">
              Full screen
            </span>
          </button>
        </div>
      </div>
    </div>
  );
}
