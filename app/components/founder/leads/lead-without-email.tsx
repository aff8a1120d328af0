import { ExternalLink, LoaderCircle, MailPlus, Phone } from "lucide-react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass } from "~/components/ui/buttons";
import { FormAlert, TextField, RecordIdField } from "~/components/ui/form-fields";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { httpUrlOrNull } from "~/components/pitch/safe-url";
import type { FormResult } from "~/modules/forms/form-result";
import { leadEmailSchema } from "~/modules/leads/lead-forms";
import type { LeadView } from "~/modules/leads/inbox/lead-views.server";

/**
 * How to reach a person met in person without an e-mail (decision 92): their LinkedIn profile and their phone, where
 * the capture gave them (a role that may not see addresses sees neither).
 */
export function WaysToReach({ lead }: { lead: LeadView }) {
  const linkedin = httpUrlOrNull(lead.linkedinUrl);
  return (
    <div className="mt-0.5 flex min-w-0 flex-wrap items-center gap-x-3 gap-y-0.5 text-sm">
      <span className="text-slate-600">No e-mail</span>
      {linkedin ? (
        <a href={linkedin} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex min-w-0 items-center gap-1 font-medium text-brand-700 hover:underline">
          <ExternalLink aria-hidden className="size-3.5 shrink-0" />
          <span className="truncate">LinkedIn</span>
        </a>
      ) : null}
      {lead.phone ? (
        <a href={`tel:${lead.phone.replace(/[^\d+]/g, "")}`} className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline">
          <Phone aria-hidden className="size-3.5 shrink-0" />
          {lead.phone}
        </a>
      ) : null}
    </div>
  );
}

/** 'Add an e-mail to reply': the address the team's replies will go to; Reply appears once it is saved. */
export function AddLeadEmail({ projectId, lead }: { projectId: string; lead: LeadView }) {
  const fetcher = useFetcher<FormResult>();
  const busy = fetcher.state !== "idle";
  const { form, field, formError } = useSchemaForm(leadEmailSchema, {
    id: `lead-${lead.id}-add-email`,
    hidden: ["leadId"],
    lastResult: fetcher.data,
    busy,
    onResult: (settled) => (settled.ok ? toast.success(`${lead.name}: e-mail added, you can reply now`) : undefined),
  });
  const email = field("email");
  return (
    <fetcher.Form
      method="post"
      action={`/project/${projectId}/leads`}
      {...form}
      aria-label={`Add an e-mail for ${lead.name}`}
      className="mt-3 rounded-lg bg-amber-50/70 p-3 ring-1 ring-amber-200"
    >
      <input type="hidden" name="intent" value="email" />
      <RecordIdField name="leadId" id={lead.id} />
      <div className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-end">
        <TextField {...email} label="Add an e-mail to reply" type="email" inputMode="email" autoComplete="off" hint="Met without one: replies and invitations wait for it." />
        <button type="submit" disabled={busy} className={`${primaryButtonClass} min-h-11 sm:mb-0.5 sm:min-h-9`}>
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <MailPlus aria-hidden className="size-4" />}
          Save e-mail
        </button>
      </div>
      <div className="mt-2 empty:hidden">
        <FormAlert message={formError} />
      </div>
    </fetcher.Form>
  );
}
