import { Undo2 } from "lucide-react";
import { cardClass } from "~/components/ui/card";
import { smallButton, useToastedFetcher } from "./qr-code-manage";
import { RecordIdField } from "~/components/ui/form-fields";

/**
 * The owner's list of this project's printed codes that open another project now (decision 79), each with
 * 'Move back': the owner of the project a code was made in may always bring it home.
 */
export function QrCodesAwayCard({ projectId, codes }: { projectId: string; codes: { id: string; label: string; projectTitle: string }[] }) {
  const back = useToastedFetcher("Failed to move the QR code back");
  if (codes.length === 0) return null;
  return (
    <section aria-labelledby="codes-away-heading" className={`${cardClass} p-4 sm:p-6`}>
      <h2 id="codes-away-heading" className="text-lg font-semibold text-slate-900">
        Your codes in other projects
      </h2>
      <p className="mt-0.5 text-sm text-slate-600">Made for this project, they open another pitch now. Move one back and its printed copies open this pitch again.</p>
      <ul aria-label="QR codes in other projects" className="mt-3 space-y-2">
        {codes.map((code) => (
          <li key={code.id} className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white p-3 sm:flex-nowrap">
            <div className="min-w-0 flex-1">
              <h3 className="min-w-0 truncate text-sm font-semibold text-slate-900">{code.label}</h3>
              <p className="mt-0.5 text-sm text-slate-600">Opens {code.projectTitle}</p>
            </div>
            <back.fetcher.Form method="post" action={`/project/${projectId}/edit`}>
              <input type="hidden" name="intent" value="move-qr-back" />
              <RecordIdField name="qrCodeId" id={code.id} />
              <button type="submit" disabled={back.busy} aria-label={`Move ${code.label} back`} className={smallButton}>
                <Undo2 aria-hidden className="size-4" />
                Move back
              </button>
            </back.fetcher.Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
