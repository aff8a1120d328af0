import { Download, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { useProjectAllows } from "~/components/founder/use-project-role";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { fieldControl, FieldError, FormAlert, inputClass, labelClass, RecordIdField, TextAreaField } from "~/components/ui/form-fields";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { LEAD_STATUS_LABELS, LEAD_STATUSES } from "~/modules/formats/lead-triage";
import { leadTriageSchema } from "~/modules/leads/lead-forms";
import type { LeadView } from "~/modules/leads/inbox/lead-views.server";
import type { TriageResult } from "./triage-result";

/** The founder's private status and team note for one lead, with the lead's vCard for those who may export. */
export function TriageForm({ projectId, lead, documentResult }: { projectId: string; lead: LeadView; documentResult?: TriageResult | undefined }) {
  const fetcher = useFetcher<TriageResult>();
  const busy = fetcher.state !== "idle";
  const canExport = useProjectAllows("export");
  const [note, setNote] = useState(lead.note ?? "");
  const { form, field, formError } = useSchemaForm(leadTriageSchema, {
    id: `lead-${lead.id}`,
    hidden: ["leadId"],
    lastResult: fetcher.data ?? documentResult,
    busy,
    onResult: (settled) => (settled.ok ? toast.success(`${lead.name}: saved`) : toast.error(settled.formError)),
  });
  const status = field("status");
  // Counted, not cut: the founder may type past the limit and sees the counter turn red.
  const { maxLength, ...noteField } = field("note");

  return (
    <fetcher.Form
      method="post"
      action={`/project/${projectId}/leads`}
      {...form}
      aria-label={`Status and note for ${lead.name}`}
      className="mt-4 border-t border-slate-100 pt-3"
    >
      <input type="hidden" name="intent" value="triage" />
      <RecordIdField name="leadId" id={lead.id} />
      <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
        <div>
          <label htmlFor={status.id} className={labelClass}>
            Status
          </label>
          <select
            // A reply or a logged call moves the status on the server: the select follows it rather than posting the
            // old status back with the next note.
            key={lead.status}
            {...fieldControl(status)}
            defaultValue={lead.status}
            className={inputClass}
          >
            {LEAD_STATUSES.map((value) => (
              <option key={value} value={value}>
                {LEAD_STATUS_LABELS[value]}
              </option>
            ))}
          </select>
          <FieldError id={`${status.id}-error`} message={status.error} />
        </div>
        <TextAreaField
          {...noteField}
          label="Team note"
          rows={2}
          value={note}
          counter={{ length: note.trim().length, max: maxLength ?? 0 }}
          onChange={(event) => setNote(event.target.value)}
          placeholder="Your team sees this; the person never does"
          className={inputClass}
        />
      </div>
      <div className="mt-3 empty:hidden">
        <FormAlert message={formError} />
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-end gap-2">
        {canExport ? (
          <a href={`/project/${projectId}/leads/${lead.id}/vcard.vcf`} download className={`${secondaryButtonClass} py-2`} title={`Download ${lead.name} as a contact card`}>
            <Download aria-hidden className="size-4" />
            vCard
          </a>
        ) : null}
        <button type="submit" disabled={busy} className={`${primaryButtonClass} py-2`}>
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
          {busy ? "Saving..." : "Save"}
        </button>
      </div>
    </fetcher.Form>
  );
}
