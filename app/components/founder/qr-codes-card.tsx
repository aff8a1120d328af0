import { Check, Copy, Download, LoaderCircle, Printer, QrCode, ScanLine, Tag, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link, useFetcher } from "react-router";
import { toast } from "sonner";
import { cardClass } from "~/components/ui/card";
import { TextField } from "~/components/ui/form-fields";
import { useCopy } from "~/components/ui/use-copy";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useSettledResult } from "~/components/ui/use-settled-result";
import { formToObject, validate } from "~/modules/forms/validation";
import type { FormResult } from "~/modules/http/form-result";
import { printPagePath, qrCodeFormSchema } from "~/modules/qr/qr-form";
import { downloadQrImages } from "./form/download-qr";

export type QrCodeItem = {
  id: string;
  label: string;
  eventTag: string | null;
  totalScans: number;
  uniqueScans: number;
  createdAt: string | Date;
  url: string;
  /** SVG markup of the code, shown small beside it. */
  svg: string;
};

type QrCodesCardProps = {
  projectId: string;
  slug: string;
  pitchUrl: string;
  /** SVG markup of the untracked pitch URL's code. */
  pitchQrSvg: string;
  /** Newest first. */
  qrCodes: QrCodeItem[];
};

const CREATED = "QR code created successfully";
const CREATE_FAILED = "Failed to create QR code";
const DELETED = "QR code deleted";
const DELETE_FAILED = "Failed to delete QR code";
const DELETE_CONFIRM = "Are you sure you want to delete this QR code?";

type Copier = ReturnType<typeof useCopy>;

/**
 * The edit screen's QR section (SPEC.md section 2): the legacy untracked code for the pitch URL, then
 * 'QR Codes & Event Tracking': a create form and the 'Active QR Codes' list with download and delete.
 * Create and delete post to the edit route's action (`intent=create-qr`, `intent=delete-qr`).
 */
export function QrCodesCard({ projectId, slug, pitchUrl, pitchQrSvg, qrCodes }: QrCodesCardProps) {
  const action = `/project/${projectId}/edit`;
  const copier = useCopy();
  const deleteFetcher = useFetcher<FormResult>();
  const deleting = deleteFetcher.state !== "idle";
  const deletingId = deleting ? String(deleteFetcher.formData?.get("qrCodeId") ?? "") : null;
  // Hidden as soon as the founder confirms; a failed delete brings the row back.
  const visible = qrCodes.filter((code) => code.id !== deletingId);

  useSettledResult(deleteFetcher.data, !deleting, (result) => {
    if (result.ok) toast.success(DELETED);
    else toast.error(DELETE_FAILED);
  });

  return (
    <div className="space-y-4 sm:space-y-5">
      <PitchQrCode slug={slug} pitchUrl={pitchUrl} svg={pitchQrSvg} copier={copier} />

      <section aria-labelledby="qr-tracking-title" className={`${cardClass} overflow-hidden`}>
        <div className="p-4 sm:p-6">
          <div className="flex items-start gap-3">
            <span aria-hidden className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
              <ScanLine className="size-5" />
            </span>
            <div className="min-w-0">
              <h2 id="qr-tracking-title" className="text-base font-semibold tracking-tight text-slate-900">
                QR Codes &amp; Event Tracking
              </h2>
              <p className="mt-0.5 text-sm text-slate-600">Print one code per event, booth or flyer to see which ones bring scans.</p>
            </div>
          </div>
          <CreateQrForm action={action} />
        </div>

        <div className="border-t border-slate-200 bg-slate-50/60 p-4 sm:p-6">
          <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-900">
            Active QR Codes
            <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold tabular-nums text-slate-700">{visible.length}</span>
          </h3>
          {visible.length ? (
            <ul className="mt-3 space-y-3">
              {visible.map((code) => (
                <QrCodeRow
                  key={code.id}
                  projectId={projectId}
                  code={code}
                  slug={slug}
                  copier={copier}
                  deleteForm={
                    <deleteFetcher.Form
                      method="post"
                      action={action}
                      onSubmit={(event: FormEvent<HTMLFormElement>) => {
                        if (deleting || !window.confirm(DELETE_CONFIRM)) event.preventDefault();
                      }}
                    >
                      <input type="hidden" name="intent" value="delete-qr" />
                      <input type="hidden" name="qrCodeId" value={code.id} />
                      <button
                        type="submit"
                        disabled={deleting}
                        aria-label={`Delete QR code ${code.label}`}
                        title="Delete QR code"
                        className="inline-flex size-10 items-center justify-center rounded-lg border border-slate-200 bg-white text-slate-500 shadow-sm transition-colors hover:border-red-200 hover:bg-red-50 hover:text-red-600 disabled:cursor-not-allowed disabled:opacity-50"
                      >
                        <Trash2 aria-hidden className="size-4" />
                      </button>
                    </deleteFetcher.Form>
                  }
                />
              ))}
            </ul>
          ) : (
            <div className="mt-3 flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-4 py-8 text-center">
              <span aria-hidden className="flex size-11 items-center justify-center rounded-full bg-slate-100 text-slate-500">
                <QrCode className="size-5" />
              </span>
              <p className="mt-3 text-sm font-semibold text-slate-900">No QR codes yet</p>
              <p className="mt-1 max-w-xs text-sm text-slate-600">Generate one for your next event; its scans show up here and in your analytics.</p>
            </div>
          )}
        </div>
      </section>
    </div>
  );
}

function svgSource(svg: string): string {
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
}

function PitchQrCode({ slug, pitchUrl, svg, copier }: { slug: string; pitchUrl: string; svg: string; copier: Copier }) {
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

function CreateQrForm({ action }: { action: string }) {
  const fetcher = useFetcher<FormResult>();
  const busy = fetcher.state !== "idle";
  const [label, setLabel] = useState("");
  const [eventTag, setEventTag] = useState("");
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const serverErrors = !busy && fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : null;
  const errors = clientErrors ?? serverErrors ?? {};
  const dismiss = (field: string) => {
    if (!errors[field]) return;
    const { [field]: _dropped, ...rest } = errors;
    setClientErrors(rest);
  };

  // A created code empties the form (adjusted while rendering, so there is no extra pass).
  const [resetFor, setResetFor] = useState(fetcher.data);
  if (!busy && fetcher.data !== resetFor) {
    setResetFor(fetcher.data);
    if (fetcher.data?.ok) {
      setLabel("");
      setEventTag("");
      setClientErrors(null);
    }
  }

  useSettledResult(fetcher.data, !busy, (result) => {
    if (result.ok) {
      toast.success(CREATED);
      return;
    }
    toast.error(result.formError || CREATE_FAILED);
    document.getElementById(result.fieldErrors?.eventTag && !result.fieldErrors.label ? "qr-event-tag" : "qr-label")?.focus();
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (busy) {
      event.preventDefault();
      return;
    }
    const result = validate(qrCodeFormSchema, formToObject(new FormData(event.currentTarget)));
    if (result.ok) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    setClientErrors(result.fieldErrors);
    document.getElementById(result.fieldErrors.label ? "qr-label" : "qr-event-tag")?.focus();
  }

  return (
    <fetcher.Form method="post" action={action} noValidate onSubmit={onSubmit} aria-label="Create QR code" className="mt-5">
      <input type="hidden" name="intent" value="create-qr" />
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_auto] sm:items-start">
        <TextField
          id="qr-label"
          name="label"
          label="Label"
          required
          maxLength={100}
          autoComplete="off"
          placeholder="e.g. Disrupt booth"
          value={label}
          onChange={(event) => {
            setLabel(event.target.value);
            dismiss("label");
          }}
          error={errors.label}
        />
        <TextField
          id="qr-event-tag"
          name="eventTag"
          label="Event Tag"
          optional
          maxLength={50}
          autoComplete="off"
          placeholder="e.g. disrupt-2025"
          value={eventTag}
          onChange={(event) => {
            setEventTag(event.target.value);
            dismiss("eventTag");
          }}
          error={errors.eventTag}
        />
        <button
          type="submit"
          disabled={busy || label.trim() === ""}
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50 sm:mt-6"
        >
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <QrCode aria-hidden className="size-4" />}
          Generate QR Code
        </button>
      </div>
    </fetcher.Form>
  );
}

type QrCodeRowProps = { projectId: string; code: QrCodeItem; slug: string; copier: Copier; deleteForm: React.ReactNode };

function QrCodeRow({ projectId, code, slug, copier, deleteForm }: QrCodeRowProps) {
  const hydrated = useHydrated();
  const [downloading, setDownloading] = useState(false);
  const scans = `${code.totalScans} ${code.totalScans === 1 ? "scan" : "scans"} · ${code.uniqueScans} unique`;
  const created = new Date(code.createdAt);

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
        </div>
        <p className="mt-1 text-sm text-slate-600">
          <span className="font-medium tabular-nums text-slate-800">{scans}</span>
          <span aria-hidden> · </span>
          <span className="whitespace-nowrap">
            Created{" "}
            <time dateTime={Number.isNaN(created.getTime()) ? undefined : created.toISOString()} suppressHydrationWarning>
              {Number.isNaN(created.getTime()) ? "" : created.toLocaleDateString()}
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
