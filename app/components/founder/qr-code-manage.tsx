import { Archive, ArrowRightLeft, CalendarClock, RotateCcw } from "lucide-react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { secondaryButtonClass } from "~/components/ui/buttons";
import { FieldError, RecordIdField } from "~/components/ui/form-fields";
import { useSettledResult } from "~/components/ui/use-settled-result";
import type { FormResult } from "~/modules/forms/form-result";
import { formatEventDay } from "~/modules/qr/qr-form";
import type { QrCodeItem } from "./qr-code-views";
import { useProjectRole } from "./use-project-role";
import { pluralWord } from "~/modules/formats/counts";

/**
 * A printed code's life after the event (decision 64): archive it (it leaves the active list and
 * keeps working), give its event an end date, move it to another published project, or delete it; a code with
 * scans offers 'Archive instead' before it is deleted. Every write posts to the edit route's action.
 */

export const smallButton = `${secondaryButtonClass} h-10 px-3 py-0`;

/** A fetcher whose answer is toasted once it settles (its failure message, or `failure` when it has none). */
export function useToastedFetcher(failure: string) {
  const fetcher = useFetcher<FormResult>();
  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => {
    if (result.ok) toast.success(result.message);
    else toast.error(result.formError || failure);
  });
  const fieldError = (name: string) => (fetcher.data && !fetcher.data.ok && fetcher.state === "idle" ? fetcher.data.fieldErrors?.[name] : undefined);
  return { fetcher, busy: fetcher.state !== "idle", fieldError };
}

/** "Ends Nov 30, 2026" before the day is over in the founder's zone, "Ended …" after. */
export function EventEndBadge({ endsOn, today }: { endsOn: string | null; today: string }) {
  if (!endsOn) return null;
  const ended = endsOn < today;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${ended ? "bg-slate-100 text-slate-700 ring-slate-200" : "bg-emerald-50 text-emerald-800 ring-emerald-100"}`}
    >
      <CalendarClock aria-hidden className="size-3 shrink-0" />
      {ended ? "Ended" : "Ends"} {formatEventDay(endsOn)}
    </span>
  );
}

/** A fetcher the QR codes card owns: a row that archives, restores or moves its code leaves the list, its answer stays. */
export type CardFetcher = ReturnType<typeof useFetcher<FormResult>>;

type ManageProps = {
  action: string;
  code: QrCodeItem & { eventEndsOn: string | null };
  repointTargets: { id: string; title: string }[];
  archiveFetcher: CardFetcher;
  moveFetcher: CardFetcher;
  /** The move's field error, when the last move was this code's. */
  moveError: string | undefined;
};

/** Under an active code: archive, event end date, move. */
export function ManageQrCode({ action, code, repointTargets, archiveFetcher, moveFetcher, moveError }: ManageProps) {
  const end = useToastedFetcher("Failed to save the event's end date");
  const endId = `qr-end-${code.id}`;
  const moveId = `qr-move-${code.id}`;
  // Codes move only between projects one owns both of (decision 79).
  const canMove = useProjectRole() === "owner";
  const archiveForm = (label: string) => (
    <archiveFetcher.Form method="post" action={action}>
      <input type="hidden" name="intent" value="archive-qr" />
      <RecordIdField name="qrCodeId" id={code.id} />
      <button type="submit" disabled={archiveFetcher.state !== "idle"} className={smallButton} aria-label={`${label}: ${code.label}`}>
        <Archive aria-hidden className="size-4" />
        {label}
      </button>
    </archiveFetcher.Form>
  );

  return (
    <details className="group col-span-2 border-t border-slate-100 pt-3 sm:col-span-3">
      <summary className="cursor-pointer text-sm font-semibold text-slate-700 hover:text-slate-900">Archive, end date or move</summary>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <end.fetcher.Form method="post" action={action} className="min-w-0">
          <input type="hidden" name="intent" value="set-qr-end" />
          <RecordIdField name="qrCodeId" id={code.id} />
          <label htmlFor={endId} className="block text-sm font-medium text-slate-800">
            Event ends <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <div className="mt-1 flex gap-2">
            <input
              id={endId}
              type="date"
              name="eventEndsOn"
              defaultValue={code.eventEndsOn ?? ""}
              aria-invalid={end.fieldError("eventEndsOn") ? true : undefined}
              aria-describedby={end.fieldError("eventEndsOn") ? `${endId}-error` : undefined}
              className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base aria-[invalid=true]:border-red-500"
            />
            <button type="submit" disabled={end.busy} className={smallButton}>
              Save date
            </button>
          </div>
          <FieldError id={`${endId}-error`} message={end.fieldError("eventEndsOn")} />
          <p className="mt-1 text-xs text-slate-500">After it the code still works; analytics say the event ended.</p>
        </end.fetcher.Form>

        <moveFetcher.Form method="post" action={action} className="min-w-0">
          <input type="hidden" name="intent" value="repoint-qr" />
          <RecordIdField name="qrCodeId" id={code.id} />
          {repointTargets.length ? (
            <>
              <label htmlFor={moveId} className="block text-sm font-medium text-slate-800">
                Open another project
              </label>
              <div className="mt-1 flex gap-2">
                <select
                  id={moveId}
                  name="targetProjectId"
                  defaultValue=""
                  aria-invalid={moveError ? true : undefined}
                  aria-describedby={moveError ? `${moveId}-error` : undefined}
                  className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
                >
                  <option value="" disabled>
                    Choose a project
                  </option>
                  {repointTargets.map((target) => (
                    <option key={target.id} value={target.id}>
                      {target.title}
                    </option>
                  ))}
                </select>
                <button type="submit" disabled={moveFetcher.state !== "idle"} className={smallButton}>
                  <ArrowRightLeft aria-hidden className="size-4" />
                  Move
                </button>
              </div>
              <FieldError id={`${moveId}-error`} message={moveError} />
              <p className="mt-1 text-xs text-slate-500">Printed copies then open that pitch; the scans so far stay with this one.</p>
            </>
          ) : (
            <>
              <p className="block text-sm font-medium text-slate-800">Open another project</p>
              <p className="mt-1 text-sm text-slate-600">{canMove ? "Publish another project to move this code to it." : "Only the owner of both projects can move this code."}</p>
            </>
          )}
        </moveFetcher.Form>
      </div>

      <div className="mt-4">{archiveForm("Archive")}</div>
    </details>
  );
}

/** Deleting a code that has scans: archive it instead (it keeps its numbers and keeps working), or delete anyway. */
export function ArchiveInsteadOffer({ action, code, onCancel, archiveFetcher }: { action: string; code: QrCodeItem; onCancel: () => void; archiveFetcher: CardFetcher }) {
  const scans = `${code.totalScans} ${pluralWord(code.totalScans, "scan")}`;
  return (
    <div role="alert" className="col-span-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200 sm:col-span-3">
      <p>
        <strong className="font-semibold">{code.label}</strong> has {scans}. Deleting it drops its numbers, and its printed copies would count as
        plain visits. Archive it instead: it leaves this list, keeps its numbers and still opens your pitch.
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <archiveFetcher.Form method="post" action={action} onSubmit={onCancel}>
          <input type="hidden" name="intent" value="archive-qr" />
          <RecordIdField name="qrCodeId" id={code.id} />
          <button type="submit" disabled={archiveFetcher.state !== "idle"} className={`${smallButton} border-brand-600 bg-brand-600 text-white hover:bg-brand-700`}>
            <Archive aria-hidden className="size-4" />
            Archive instead
          </button>
        </archiveFetcher.Form>
        <button type="button" className={smallButton} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** The Archived list's row: the code with its numbers, and Restore. */
export function ArchivedQrCodeRow({
  action,
  code,
  today,
  restoreFetcher,
}: {
  action: string;
  code: QrCodeItem & { eventEndsOn: string | null };
  today: string;
  restoreFetcher: CardFetcher;
}) {
  const scans = `${code.totalScans} ${pluralWord(code.totalScans, "scan")} · ${code.uniqueScans} unique`;
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white p-3 sm:flex-nowrap">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h4 className="min-w-0 truncate text-sm font-semibold text-slate-900">{code.label}</h4>
          {code.eventTag ? <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">{code.eventTag}</span> : null}
          <EventEndBadge endsOn={code.eventEndsOn} today={today} />
        </div>
        <p className="mt-0.5 text-sm tabular-nums text-slate-600">{scans} · still opens your pitch</p>
      </div>
      <restoreFetcher.Form method="post" action={action}>
        <input type="hidden" name="intent" value="restore-qr" />
        <RecordIdField name="qrCodeId" id={code.id} />
        <button type="submit" disabled={restoreFetcher.state !== "idle"} aria-label={`Restore ${code.label}`} className={smallButton}>
          <RotateCcw aria-hidden className="size-4" />
          Restore
        </button>
      </restoreFetcher.Form>
    </li>
  );
}
