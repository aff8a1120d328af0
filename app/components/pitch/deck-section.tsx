import { ArrowUpRight, FileText, Sparkles } from "lucide-react";
import { Link } from "react-router";
import type { PitchPage } from "~/modules/pitch/pitch-page.server";
import { pluralWord } from "~/modules/formats/counts";
import { DeckReader } from "./deck-reader";
import { httpUrlOrNull } from "./safe-url";
import { dialogLink, type PitchDialogs } from "./use-pitch-dialogs";

type Project = PitchPage["project"];

/**
 * The overview and the deck: an uploaded deck is read in place; without one, the founder's deck URL opens in a new
 * tab, and without either the visitor is offered an intro.
 */
export function DeckSection({ project, dialogs, enhanced = false }: { project: Project; dialogs: PitchDialogs; enhanced?: boolean }) {
  const deckUrl = httpUrlOrNull(project.deckUrl);
  const { deck } = project;
  return (
    <section aria-labelledby="deck-title" className="mx-auto max-w-6xl px-4">
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        {project.summary ? (
          <div className="p-5 sm:p-6">
            <h2 className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wider text-slate-500">
              <Sparkles aria-hidden className="size-4 text-brand-600" />
              Overview
            </h2>
            <p className="mt-3 whitespace-pre-line text-[15px] leading-relaxed text-slate-700 sm:text-base">{project.summary}</p>
          </div>
        ) : null}
        <div className={`flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6 ${project.summary ? "border-t border-slate-100 bg-slate-50/60" : ""}`}>
          <div className="flex items-center gap-3">
            <span aria-hidden className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
              <FileText className="size-5" />
            </span>
            <div>
              <h2 id="deck-title" className="font-bold tracking-tight text-slate-900">
                Pitch deck
              </h2>
              <p className="text-sm text-slate-600">
                {deck
                  ? `${deck.pages.length} ${pluralWord(deck.pages.length, "page")}, read right here.`
                  : deckUrl
                    ? "Market, traction, team and the round."
                    : "Deck available on request"}
              </p>
            </div>
          </div>
          {deck ? null : deckUrl ? (
            <a
              href={deckUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center justify-center gap-2 rounded-xl bg-slate-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-slate-800"
            >
              View Deck
              <ArrowUpRight aria-hidden className="size-4" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          ) : (
            <Link
              {...dialogLink(dialogs, "intro")}
              className="inline-flex items-center justify-center gap-2 rounded-xl border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-900 shadow-sm hover:bg-slate-50"
            >
              Request Intro
            </Link>
          )}
        </div>
        {deck ? <DeckReader deck={deck} title={project.title} lazyPages={enhanced} /> : null}
      </div>
    </section>
  );
}
