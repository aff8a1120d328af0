import { LoaderCircle, Printer, QrCode, ScanLine, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link, useFetcher } from "react-router";
import { toast } from "sonner";
import { BadgeHeading, cardClass } from "~/components/ui/card";
import { FormAlert, TextField, RecordIdField } from "~/components/ui/form-fields";
import { useCopy } from "~/components/ui/use-copy";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { useProjectAllows } from "./use-project-role";
import { useSettledResult } from "~/components/ui/use-settled-result";
import type { FormResult } from "~/modules/forms/form-result";
import { eventSheetPath, LABEL_MAX_LENGTH, LABEL_TOO_LONG, qrCodeFormSchema } from "~/modules/qr/qr-form";
import { PitchQrCode, QrCodeRow, type QrCodeItem } from "./qr-code-views";
import { ArchivedQrCodeRow, ArchiveInsteadOffer, EventEndBadge, ManageQrCode, useToastedFetcher } from "./qr-code-manage";

type QrCodesCardProps = {
  projectId: string;
  slug: string;
  pitchUrl: string;
  /** SVG markup of the untracked pitch URL's code. */
  pitchQrSvg: string;
  /** Newest first, archived ones too. */
  qrCodes: (QrCodeItem & { eventEndsOn: string | null; archived: boolean })[];
  /** The founder's other published projects, where a code can be re-pointed. */
  repointTargets: { id: string; title: string }[];
  /** Today in the founder's zone (`YYYY-MM-DD`), for "Ends …" / "Ended …". */
  today: string;
};

const CREATED = "QR code created successfully";
const CREATE_FAILED = "Failed to create QR code";
const DELETED = "QR code deleted";
const DELETE_FAILED = "Failed to delete QR code";
const DELETE_CONFIRM = "Are you sure you want to delete this QR code?";

/**
 * The edit screen's QR section: the legacy untracked code for the pitch URL, then
 * 'QR Codes & Event Tracking': a create form and the 'Active QR Codes' list with download and delete.
 * Create and delete post to the edit route's action (`intent=create-qr`, `intent=delete-qr`).
 */
export function QrCodesCard({ projectId, slug, pitchUrl, pitchQrSvg, qrCodes, repointTargets, today }: QrCodesCardProps) {
  const action = `/project/${projectId}/edit`;
  const copier = useCopy();
  const canEdit = useProjectAllows("edit");
  const deleteFetcher = useFetcher<FormResult>();
  const deleting = deleteFetcher.state !== "idle";
  const deletingId = deleting ? String(deleteFetcher.formData?.get("qrCodeId") ?? "") : null;
  // Hidden as soon as the founder confirms; a failed delete brings the row back.
  const visible = qrCodes.filter((code) => code.id !== deletingId && !code.archived);
  const archived = qrCodes.filter((code) => code.archived);
  // The code whose delete asked first: it has scans, so archiving it is offered instead.
  const [askingDelete, setAskingDelete] = useState<string | null>(null);
  // Archiving, restoring and moving take the row out of its list: the card keeps their fetchers, so the answer is shown.
  const archive = useToastedFetcher("Failed to archive QR code");
  const restore = useToastedFetcher("Failed to restore QR code");
  const move = useToastedFetcher("Failed to re-point QR code");
  const movingId = move.fetcher.formData?.get("qrCodeId") ?? move.fetcher.data?.id;

  useSettledResult(deleteFetcher.data, !deleting, (result) => {
    if (result.ok) toast.success(DELETED);
    else toast.error(DELETE_FAILED);
  });

  return (
    <div className="space-y-4 sm:space-y-5">
      <PitchQrCode slug={slug} pitchUrl={pitchUrl} svg={pitchQrSvg} copier={copier} />

      <section aria-labelledby="qr-tracking-title" className={`${cardClass} overflow-hidden`}>
        <div className="p-4 sm:p-6">
          <BadgeHeading
            id="qr-tracking-title"
            icon={ScanLine}
            badge="bg-brand-50 text-brand-600"
            title="QR Codes & Event Tracking"
            description="Print one code per event, booth or flyer to see which ones bring scans."
          />
          {canEdit ? <CreateQrForm action={action} /> : null}
        </div>

        <div className="border-t border-slate-200 bg-slate-50/60 p-4 sm:p-6">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-900">
              Active QR Codes
              <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold tabular-nums text-slate-700">{visible.length}</span>
            </h3>
            {visible.length ? (
              <Link
                to={eventSheetPath(projectId)}
                className="ml-auto inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-brand-700 hover:text-brand-600 hover:underline"
              >
                <Printer aria-hidden className="size-4" />
                Print all on one sheet
              </Link>
            ) : null}
          </div>
          {visible.length ? (
            <ul aria-label="Active QR codes" className="mt-3 space-y-3">
              {visible.map((code) => (
                <QrCodeRow
                  key={code.id}
                  projectId={projectId}
                  code={code}
                  slug={slug}
                  copier={copier}
                  deleteForm={
                    canEdit ? <deleteFetcher.Form
                      method="post"
                      action={action}
                      onSubmit={(event: FormEvent<HTMLFormElement>) => {
                        if (deleting) return event.preventDefault();
                        // A code with scans offers 'Archive instead' first; asked once, the same button deletes.
                        const scanned = code.totalScans + (code.scansElsewhere ?? 0) > 0;
                        if (scanned && askingDelete !== code.id) {
                          event.preventDefault();
                          setAskingDelete(code.id);
                        } else if (!scanned && !window.confirm(DELETE_CONFIRM)) event.preventDefault();
                      }}
                    >
                      <input type="hidden" name="intent" value="delete-qr" />
                      <RecordIdField name="qrCodeId" id={code.id} />
                      <button
                        type="submit"
                        disabled={deleting}
                        aria-label={askingDelete === code.id ? `Delete anyway: ${code.label}` : `Delete QR code ${code.label}`}
                        title={askingDelete === code.id ? "Delete anyway" : "Delete QR code"}
                        className="inline-flex size-10 items-center justify-center rounded-lg border border-slate-200 bg-white text-slate-500 shadow-sm transition-colors hover:border-red-200 hover:bg-red-50 hover:text-red-600 disabled:cursor-not-allowed disabled:opacity-50"
                      >
                        <Trash2 aria-hidden className="size-4" />
                      </button>
                    </deleteFetcher.Form> : null
                  }
                  badge={<EventEndBadge endsOn={code.eventEndsOn} today={today} />}
                >
                  {askingDelete === code.id ? (
                    <ArchiveInsteadOffer action={action} code={code} onCancel={() => setAskingDelete(null)} archiveFetcher={archive.fetcher} />
                  ) : null}
                  <ManageQrCode
                    action={action}
                    code={code}
                    repointTargets={repointTargets}
                    archiveFetcher={archive.fetcher}
                    moveFetcher={move.fetcher}
                    moveError={movingId === code.id ? move.fieldError("targetProjectId") : undefined}
                  />
                </QrCodeRow>
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

        {archived.length ? (
          <div className="border-t border-slate-200 p-4 sm:p-6">
            <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-900">
              Archived
              <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold tabular-nums text-slate-700">{archived.length}</span>
            </h3>
            <p className="mt-0.5 text-sm text-slate-600">Off your active list; printed copies still open your pitch and count here.</p>
            <ul aria-label="Archived QR codes" className="mt-3 space-y-2">
              {archived.map((code) => (
                <ArchivedQrCodeRow key={code.id} action={action} code={code} today={today} restoreFetcher={restore.fetcher} />
              ))}
            </ul>
          </div>
        ) : null}
      </section>
    </div>
  );
}

function CreateQrForm({ action }: { action: string }) {
  const fetcher = useFetcher<FormResult>();
  const busy = fetcher.state !== "idle";
  const [label, setLabel] = useState("");
  const [eventTag, setEventTag] = useState("");
  const [eventEndsOn, setEventEndsOn] = useState("");
  const { form, field, formError } = useSchemaForm(qrCodeFormSchema, {
    id: "qr",
    lastResult: fetcher.data,
    busy,
    onResult: (result) => {
      if (!result.ok) return void toast.error(result.formError || CREATE_FAILED);
      // A created code empties the form.
      setLabel("");
      setEventTag("");
      setEventEndsOn("");
      toast.success(CREATED);
    },
  });

  // No maxLength on the input: a pasted label past the limit is shown whole, counted and refused, never cut.
  const { maxLength: labelMax = LABEL_MAX_LENGTH, ...labelField } = field("label");

  return (
    <fetcher.Form method="post" action={action} {...form} aria-label="Create QR code" className="mt-5">
      <input type="hidden" name="intent" value="create-qr" />
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start">
        <TextField
          {...labelField}
          label="Label"
          autoComplete="off"
          placeholder="e.g. Disrupt booth"
          value={label}
          error={labelField.error ?? (label.trim().length > labelMax ? LABEL_TOO_LONG : undefined)}
          counter={{ length: label.trim().length, max: labelMax }}
          onChange={(event) => setLabel(event.target.value)}
        />
        <TextField
          {...field("eventTag")}
          label="Event Tag"
          optional
          autoComplete="off"
          placeholder="e.g. disrupt-2025"
          value={eventTag}
          onChange={(event) => setEventTag(event.target.value)}
        />
        <TextField
          {...field("eventEndsOn")}
          label="Event ends"
          optional
          type="date"
          value={eventEndsOn}
          onChange={(event) => setEventEndsOn(event.target.value)}
        />
        <button
          type="submit"
          disabled={busy || label.trim() === "" || label.trim().length > labelMax}
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50 sm:mt-6"
        >
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <QrCode aria-hidden className="size-4" />}
          Generate QR Code
        </button>
      </div>
      <div className="mt-3 empty:hidden">
        <FormAlert message={formError} />
      </div>
    </fetcher.Form>
  );
}

