import { BookOpen } from "lucide-react";
import { useSearchParams } from "react-router";
import { AudienceChoices } from "./audience-choices";
import type { ProjectAnalytics } from "~/modules/analytics/analytics.server";
import type { DeckReaders } from "~/modules/deck-reading/deck-readers.server";
import { readingTimeText } from "~/modules/deck-reading/reading-text";
import { SectionCard } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/page-header";
import { plural } from "~/modules/formats/counts";

const PROJECT = "all";
const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * Decision 99: how visitors read the deck on the page now, page by page, for the whole project or one code (the
 * same `?audience=` choice as the scans' audience, so both sections show the same code). A table at every width;
 * from tablet width up, the drop-off as bars with their shares written on them.
 */
export function DeckReadingCard({ deck, codes }: { deck: DeckReaders; codes: ProjectAnalytics["audience"]["codes"] }) {
  const [params] = useSearchParams();
  const chosen = codes.find((code) => code.source === deck.source);
  const hrefFor = (source: string) => {
    const next = new URLSearchParams(params);
    next.set("audience", source);
    return `?${next.toString()}#deck-title`;
  };
  const choices = [{ source: PROJECT, name: "Whole project" }, ...codes];
  // A code the scans' list does not name (an address typed by hand) is still read as chosen.
  const where = chosen ? chosen.name : deck.source ? "This code" : "Whole project";
  const apart = [
    deck.apart.teamViews ? plural(deck.apart.teamViews, "view") + " by your team" : null,
    deck.apart.botViews ? plural(deck.apart.botViews, "view") + " by bots" : null,
  ].filter(Boolean);

  return (
    <SectionCard id="deck-title" title="Deck" description="How visitors read the deck on your page now, page by page." icon={BookOpen}>
      <div data-deck-reading className="grid gap-4">
        {codes.length ? (
          <AudienceChoices label="Show reading of" choices={choices} current={chosen?.source ?? PROJECT} hrefFor={hrefFor} />
        ) : null}

        <p className="text-sm text-slate-600">
          <strong className="font-semibold text-slate-950">{where}</strong>: <span data-deck-readers>{plural(deck.readers, "reader")}</span> of{" "}
          {plural(deck.pageCount, "page")}.
          {apart.length ? ` Not counted: ${apart.join(" and ")}.` : null}
        </p>

        {deck.readers === 0 ? (
          <EmptyState
            compact
            icon={BookOpen}
            title={deck.source ? "No one has read your deck through this code yet" : "No one has read your deck yet"}
            text="When visitors spend time on its pages, each page's readers and their time show here."
          />
        ) : (
          <>
            <DropOffChart deck={deck} />
            <PagesTable deck={deck} />
          </>
        )}
      </div>
    </SectionCard>
  );
}

/** The share of readers who reached each page, a bar per page with its share above it; the table says the same. */
function DropOffChart({ deck }: { deck: DeckReaders }) {
  return (
    <section aria-hidden className="hidden rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200/70 ring-inset md:block">
      <h3 className="text-sm font-semibold text-slate-900">Readers who reached each page</h3>
      <p className="mt-0.5 text-xs text-slate-600">Share of the {plural(deck.readers, "reader")} who spent any time on the page.</p>
      <div data-deck-chart className="mt-3 flex h-44 items-end gap-1 border-b border-slate-300">
        {deck.pages.map((page) => (
          <span key={page.page} title={`Page ${page.page}: ${plural(page.readers, "reader")}`} className="flex h-full min-w-0 flex-1 flex-col items-center justify-end">
            <span className="mb-1 text-[11px] font-semibold whitespace-nowrap text-slate-800 tabular-nums">{percent(page.share)}</span>
            <span className="block w-full max-w-12 rounded-t-sm bg-brand-500" style={{ height: `${page.share * 80}%`, minHeight: page.readers ? 3 : 0 }} />
          </span>
        ))}
      </div>
      <div className="mt-1 flex gap-1 text-[11px] text-slate-500 tabular-nums">
        {deck.pages.map((page) => (
          <span key={page.page} className="min-w-0 flex-1 text-center">
            {page.page}
          </span>
        ))}
      </div>
      <p className="mt-1 text-center text-xs text-slate-500">Page</p>
    </section>
  );
}

function PagesTable({ deck }: { deck: DeckReaders }) {
  return (
    <div className="-mx-4 -mb-4 overflow-x-auto sm:-mx-5 sm:-mb-5">
      <table data-deck-pages className="w-full text-left text-sm">
        <caption className="sr-only">Readers and reading time per page of the deck</caption>
        <thead className="border-y border-slate-200 bg-slate-50/70 text-xs font-medium text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2.5 font-medium sm:px-5">
              Page
            </th>
            <th scope="col" className="px-2 py-2.5 text-right font-medium">
              Readers
            </th>
            <th scope="col" className="px-2 py-2.5 text-right font-medium">
              Median
            </th>
            <th scope="col" className="px-4 py-2.5 text-right font-medium sm:px-5">
              Total
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {deck.pages.map((page) => (
            <tr key={page.page}>
              <th scope="row" className="px-4 py-2.5 font-medium text-slate-900 tabular-nums sm:px-5">
                {page.page}
              </th>
              <td className="px-2 py-2.5 text-right whitespace-nowrap tabular-nums">
                <span className="font-semibold text-slate-950">{page.readers.toLocaleString("en-US")}</span>{" "}
                <span className="text-xs text-slate-500">{percent(page.share)}</span>
              </td>
              <td className="px-2 py-2.5 text-right whitespace-nowrap text-slate-700 tabular-nums">{page.readers ? readingTimeText(page.medianMs) : "–"}</td>
              <td className="px-4 py-2.5 text-right whitespace-nowrap text-slate-700 tabular-nums sm:px-5">{page.readers ? readingTimeText(page.totalMs) : "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
