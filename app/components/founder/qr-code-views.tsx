import { Check, Copy, Download, LoaderCircle, Printer, Tag } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { cardClass } from "~/components/ui/card";
import type { useCopy } from "~/components/ui/use-copy";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { useHydrated } from "~/components/ui/use-hydrated";
import { formatFounderDate } from "~/modules/time/founder-dates";
import { printPagePath } from "~/modules/qr/qr-form";
import { downloadQrImages } from "./form/download-qr";
import { pluralWord } from "~/modules/formats/counts";

export type QrCodeItem = {
  id: string;
  label: string;
  eventTag: string | null;
  /** Scans and unique viewers made for this project. */
  totalScans: number;
  uniqueScans: number;
  /** Scans the code brought the project it opened before it was re-pointed here. */
  scansElsewhere?: number;
  createdAt: string | Date;
  url: string;
  /** SVG markup of the code, shown small beside it. */
  svg: string;
  /** The event's last day (`YYYY-MM-DD`), or null. */
  eventEndsOn?: string | null;
  archived?: boolean;
};

export type Copier = ReturnType<typeof useCopy>;

function svgSource(svg: string): string {
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
}

export function PitchQrCode({ slug, pitchUrl, svg, copier }: { slug: string; pitchUrl: string; svg: string; copier: Copier }) {
  const hydrated = useHydrated();
  const src = svgSource(svg);
  return (
    <section aria-labelledby="pitch-qr-title" className={`${cardClass} p-4 sm:p-6`}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:gap-6">
        <div className="mx-auto shrink-0 rounded-xl bg-white p-2 ring-1 ring-slate-200 sm:mx-0">
          <img src={src} alt={`QR code for ${pitchUrl}`} width={144} height={144} className="size-36" />
        </div>
        <div className="min-w-0 flex-1">
          <h2 id="pitch-qr-title" className="text-base font-semibold tracking-tight text-slate-900">
            Pitch Page QR Code
          </h2>
          <p className="mt-0.5 text-sm text-slate-600">
            Opens your pitch page directly. Its scans are not tied to an event; use a tracked code below for that.
          </p>
          <UrlBox url={pitchUrl} copyLabel="Copy pitch page link" copied={copier.copied === "pitch"} onCopy={hydrated ? () => copier.copy(pitchUrl, "pitch") : undefined} />
          <a
            href={src}
            download={`${slug}-qr.svg`}
            className="mt-3 inline-flex items-center gap-1.5 text-sm font-semibold text-brand-700 hover:text-brand-600 hover:underline"
          >
            <Download aria-hidden className="size-4" />
            Download SVG
          </a>
        </div>
      </div>
    </section>
  );
}

function UrlBox({ url, copyLabel, copied, onCopy, small }: { url: string; copyLabel: string; copied: boolean; onCopy?: () => void; small?: boolean }) {
  return (
    <div className={`flex min-w-0 items-center gap-1 rounded-lg bg-slate-50 py-1.5 pl-3 pr-1 ring-1 ring-slate-200 ${small ? "mt-2" : "mt-3"}`}>
      <code className={`min-w-0 flex-1 font-mono break-all text-slate-700 select-all ${small ? "text-xs" : "text-sm"}`}>
        {url}
      </code>
      {onCopy ? (
        <button
          type="button"
          onClick={onCopy}
          aria-label={copied ? "Copied!" : copyLabel}
          className="inline-flex h-8 shrink-0 items-center gap-1 rounded-md px-2 text-xs font-semibold text-slate-600 hover:bg-white hover:text-slate-900 hover:shadow-sm"
        >
          {copied ? <Check aria-hidden className="size-3.5 text-emerald-600" /> : <Copy aria-hidden className="size-3.5" />}
          <span aria-hidden>{copied ? "Copied!" : "Copy"}</span>
        </button>
      ) : null}
      <span role="status" className="sr-only">
        {copied ? "Copied!" : ""}
      </span>
    </div>
  );
}

type QrCodeRowProps = { projectId: string; code: QrCodeItem; slug: string; copier: Copier; deleteForm: ReactNode; badge?: ReactNode; children?: ReactNode };

export function QrCodeRow({ projectId, code, slug, copier, deleteForm, badge, children }: QrCodeRowProps) {
  const hydrated = useHydrated();
  const [downloading, setDownloading] = useState(false);
  const scans =
    `${code.totalScans} ${pluralWord(code.totalScans, "scan")} · ${code.uniqueScans} unique` +
    (code.scansElsewhere ? ` here · ${code.scansElsewhere} before it moved here` : "");
  const created = new Date(code.createdAt);
  const timeZone = useFounderTimeZone();

  async function download() {
    setDownloading(true);
    try {
      await downloadQrImages(slug, code.id);
      toast.success("QR code images downloaded");
    } catch (error) {
      console.error("QR code download failed", error);
      toast.error("Failed to generate QR code images");
    } finally {
      setDownloading(false);
    }
  }

  return (
    <li className="grid grid-cols-[auto_minmax(0,1fr)] gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-xs sm:grid-cols-[auto_minmax(0,1fr)_auto] sm:gap-x-4">
      <img
        src={svgSource(code.svg)}
        alt={`QR code for ${code.label}`}
        width={88}
        height={88}
        className="size-22 rounded-lg bg-white ring-1 ring-slate-200 sm:row-span-2"
      />
      <div className="min-w-0 self-center sm:self-start">
        <div className="flex flex-wrap items-center gap-2">
          <h4 className="min-w-0 truncate text-sm font-semibold text-slate-900">{code.label}</h4>
          {code.eventTag ? (
            <span className="inline-flex max-w-full items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700 ring-1 ring-brand-100">
              <Tag aria-hidden className="size-3 shrink-0" />
              <span className="truncate">{code.eventTag}</span>
            </span>
          ) : null}
          {badge}
        </div>
        <p className="mt-1 text-sm text-slate-600">
          <span className="font-medium tabular-nums text-slate-800">{scans}</span>
          <span aria-hidden> · </span>
          <span className="whitespace-nowrap">
            Created{" "}
            <time dateTime={Number.isNaN(created.getTime()) ? undefined : created.toISOString()}>
              {formatFounderDate(created.getTime(), timeZone)}
            </time>
          </span>
        </p>
      </div>
      {/* Under the image on a phone, so the link is not squeezed beside it. */}
      <div className="col-span-2 -mt-2 min-w-0 sm:col-span-1 sm:col-start-2 sm:mt-0">
        <UrlBox
          small
          url={code.url}
          copyLabel={`Copy link for ${code.label}`}
          copied={copier.copied === code.id}
          onCopy={hydrated ? () => copier.copy(code.url, code.id) : undefined}
        />
      </div>
      <div className="col-span-2 flex flex-wrap items-center gap-2 sm:col-span-1 sm:col-start-3 sm:row-span-2 sm:row-start-1 sm:flex-nowrap sm:self-start">
        <button
          type="button"
          onClick={download}
          disabled={!hydrated || downloading}
          className="inline-flex h-10 flex-1 items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-3.5 text-sm font-semibold text-slate-800 shadow-sm transition-colors hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60 sm:flex-none"
        >
          {downloading ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <Download aria-hidden className="size-4" />}
          {downloading ? "Generating..." : "Download"}
        </button>
        <PrintLink projectId={projectId} code={code} />
        {deleteForm}
      </div>
      {children}
    </li>
  );
}

/** 'Print' opens the code's print-ready page (the sheet, a Print button, and the SVG as a download). */
function PrintLink({ projectId, code }: { projectId: string; code: QrCodeItem }) {
  return (
    <Link
      to={printPagePath(projectId, code.id)}
      title="Print an A6 card (or US Letter) with the title, the code, its label and the link"
      className="inline-flex h-10 flex-1 items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-3.5 text-sm font-semibold text-slate-800 shadow-sm transition-colors hover:bg-slate-50 sm:flex-none"
    >
      <Printer aria-hidden className="size-4" />
      Print
    </Link>
  );
}
