import { FileUp, Presentation } from "lucide-react";
import { useEffect } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { describedBy, FieldError, FormAlert, labelClass } from "~/components/ui/form-fields";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { useSettledResult } from "~/components/ui/use-settled-result";
import { roleAllows, type ProjectRole } from "~/modules/access/roles";
import { deckDownloadSchema, deckUploadSchema } from "~/modules/deck/deck-forms";
import { DECK_MAX_PAGES } from "~/modules/deck/deck-rules";
import type { LiveDeck, PendingDeck, RefusedDeck } from "~/modules/deck/deck-section.server";
import type { PitchDeckPage } from "~/modules/deck/pitch-deck.server";
import { pluralWord } from "~/modules/formats/counts";
import type { FormResult } from "~/modules/forms/form-result";
import { formatFounderDateTime } from "~/modules/time/founder-dates";

/** How often the section asks for news while a deck is drawn. */
const PROGRESS_POLL_MS = 1_000;

type DeckCardProps = {
  projectId: string;
  slug: string;
  role: ProjectRole;
  live: LiveDeck | null;
  firstPage: PitchDeckPage | null;
  pending: PendingDeck | null;
  refused: RefusedDeck | null;
};

/** "Rendering page 4 of 14", or "Opening the PDF…" before its pages are counted. */
export function renderProgressText(pending: Pick<PendingDeck, "pagesDone" | "pageCount">): string {
  if (pending.pageCount === null) return "Opening the PDF…";
  return `Rendering page ${Math.min(pending.pagesDone + 1, pending.pageCount)} of ${pending.pageCount}`;
}

/**
 * The Deck section: upload a PDF (a role that may edit), watch it being drawn for phones, see the deck the pitch
 * page shows, let visitors download it or not, remove it. Every change posts to this section's action.
 */
export function DeckCard({ projectId, slug, role, live, firstPage, pending, refused }: DeckCardProps) {
  const action = `/project/${projectId}/deck`;
  const canEdit = roleAllows(role, "edit");
  const timeZone = useFounderTimeZone();
  const revalidator = useRevalidator();
  const pendingId = pending?.id;
  useEffect(() => {
    if (!pendingId) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void revalidator.revalidate();
    }, PROGRESS_POLL_MS);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one timer per deck being drawn
  }, [pendingId]);

  return (
    <>
      <SectionCard
        id="deck-title"
        title="Pitch deck"
        icon={Presentation}
        description="Investors read it page by page on your pitch page, on any phone, without downloading a file."
      >
        <div className="space-y-4">
          {pending ? <RenderProgress pending={pending} hasLive={live !== null} /> : null}
          {refused ? (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              <span className="font-semibold">{refused.fileName} was not taken.</span> {refused.message}
            </p>
          ) : null}
          {live ? (
            <LiveDeckSummary live={live} firstPage={firstPage} slug={slug} timeZone={timeZone} />
          ) : pending ? null : (
            <p className="text-sm text-slate-700">
              No deck uploaded yet. Until you upload one, your pitch page links to the Deck URL in Details, if you set one.
            </p>
          )}
          {canEdit ? <UploadDeckForm action={action} replacing={live !== null || pending !== null} /> : null}
        </div>
      </SectionCard>
      {canEdit && (live || pending) ? <DeckSettings action={action} live={live} /> : null}
    </>
  );
}

function RenderProgress({ pending, hasLive }: { pending: PendingDeck; hasLive: boolean }) {
  const done = pending.pageCount ? Math.round((pending.pagesDone / pending.pageCount) * 100) : 0;
  return (
    <div className="rounded-xl border border-brand-100 bg-brand-50 p-3">
      <p className="text-sm font-semibold text-slate-900" role="status" aria-live="polite">
        {renderProgressText(pending)}
      </p>
      <div className="mt-2 h-2 overflow-hidden rounded-full bg-white" aria-hidden>
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${done}%` }} />
      </div>
      <p className="mt-2 text-sm text-slate-700">
        {pending.fileName}. {hasLive ? "Your pitch page shows the current deck until this one is ready." : "It appears on your pitch page when it is ready."}
      </p>
      <noscript>
        <a href="" className="mt-1 inline-block text-sm font-semibold text-brand-700 underline">
          Refresh to see progress
        </a>
      </noscript>
    </div>
  );
}

function LiveDeckSummary({ live, firstPage, slug, timeZone }: { live: LiveDeck; firstPage: PitchDeckPage | null; slug: string; timeZone: string }) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
      {firstPage ? (
        <img
          src={firstPage.fallback}
          srcSet={firstPage.srcset}
          sizes="(min-width: 640px) 12rem, 100vw"
          width={firstPage.width}
          height={firstPage.height}
          alt={firstPage.text || "Page 1"}
          className="h-auto w-full rounded-lg border border-slate-200 sm:w-48"
        />
      ) : null}
      <div className="min-w-0 text-sm text-slate-700">
        <p className="font-semibold break-words text-slate-900">{live.fileName}</p>
        <p>
          {live.pageCount} {pluralWord(live.pageCount, "page")} · on your pitch page since {formatFounderDateTime(live.finishedAt, timeZone)}
        </p>
        <a href={`/pitch/${encodeURIComponent(slug)}#deck-title`} className="mt-1 inline-block font-semibold text-brand-700 underline">
          See it on your pitch page
        </a>
      </div>
    </div>
  );
}

function UploadDeckForm({ action, replacing }: { action: string; replacing: boolean }) {
  const upload = useFetcher<FormResult>();
  const busy = upload.state !== "idle";
  const form = useSchemaForm(deckUploadSchema, { id: "deck", lastResult: upload.data, busy, read: (data) => ({ deck: data.get("deck") }) });
  const deck = form.field("deck");
  useSettledResult(upload.data, !busy, (result) => {
    if (result.ok) toast.success(result.message);
  });
  return (
    <upload.Form method="post" action={action} encType="multipart/form-data" {...form.form} className="space-y-3 border-t border-slate-100 pt-4">
      <input type="hidden" name="intent" value="upload" />
      <div>
        <label htmlFor={deck.id} className={labelClass}>
          {replacing ? "Replace the deck (PDF)" : "Deck (PDF)"}
        </label>
        <input
          key={upload.data?.ok ? `sent-${String(upload.data.message)}` : "deck"}
          id={deck.id}
          name={deck.name}
          type="file"
          accept="application/pdf"
          data-error-slot={deck["data-error-slot"]}
          aria-invalid={deck.error ? true : undefined}
          aria-describedby={describedBy(deck.error && `${deck.id}-error`, `${deck.id}-hint`)}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white text-sm text-slate-700 file:mr-3 file:border-0 file:bg-slate-100 file:px-3 file:py-2.5 file:font-semibold file:text-slate-800"
        />
        <p id={`${deck.id}-hint`} className="mt-1 text-sm text-slate-600">
          A PDF of up to 50 MB and {DECK_MAX_PAGES} pages. Export it from PowerPoint, Keynote or Google Slides.
        </p>
        <FieldError id={`${deck.id}-error`} message={deck.error} />
      </div>
      <FormAlert message={form.formError} />
      <button type="submit" className={`${primaryButtonClass} w-full sm:w-auto`} disabled={busy}>
        <FileUp aria-hidden className="size-4" />
        {busy ? "Uploading…" : replacing ? "Upload new deck" : "Upload deck"}
      </button>
    </upload.Form>
  );
}

function DeckSettings({ action, live }: { action: string; live: LiveDeck | null }) {
  const download = useFetcher<FormResult>();
  const remove = useFetcher<FormResult>();
  const settings = useSchemaForm(deckDownloadSchema, { id: "deck-download", lastResult: download.data, busy: download.state !== "idle" });
  useSettledResult(download.data, download.state === "idle", (result) => {
    if (result.ok) toast.success(result.message);
  });
  useSettledResult(remove.data, remove.state === "idle", (result) => {
    if (result.ok) toast.success(result.message);
    else toast.error(result.formError);
  });
  return (
    <SectionCard id="deck-settings-title" title="Deck settings" icon={Presentation}>
      <div className="space-y-4">
        {live ? (
          <download.Form method="post" action={action} {...settings.form} className="space-y-2">
            <input type="hidden" name="intent" value="download" />
            <label className="flex items-start gap-3 text-sm text-slate-800">
              <input type="checkbox" name="download" defaultChecked={live.download} className="mt-0.5 size-5 shrink-0 accent-brand-600" />
              <span>
                <span className="font-semibold">Visitors may download the PDF</span>
                <span className="block text-slate-600">Off: the deck is read on the page only, and nobody gets the file.</span>
              </span>
            </label>
            <FormAlert message={settings.formError} />
            <button type="submit" className={secondaryButtonClass} disabled={download.state !== "idle"}>
              Save
            </button>
          </download.Form>
        ) : null}
        <remove.Form
          method="post"
          action={action}
          onSubmit={(event) => {
            if (!window.confirm("Remove the deck from your pitch page?")) event.preventDefault();
          }}
          className="border-t border-slate-100 pt-4"
        >
          <input type="hidden" name="intent" value="remove" />
          <button type="submit" className={`${secondaryButtonClass} text-red-700`} disabled={remove.state !== "idle"}>
            Remove deck
          </button>
          <p className="mt-1 text-sm text-slate-600">{live ? "Your Deck URL, if you set one, shows again." : "Stops the deck being prepared."}</p>
        </remove.Form>
      </div>
    </SectionCard>
  );
}
