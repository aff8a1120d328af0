import { Check, Copy } from "lucide-react";
import { useCopy } from "~/components/ui/use-copy";
import { LEAD_STATUS_LABELS } from "~/modules/formats/lead-triage";
import type { LeadView } from "~/modules/leads/inbox/lead-views.server";
import { WaysToReach } from "../lead-without-email";

const STATUS_TONES = {
  contacted: "bg-violet-50 text-violet-700 ring-violet-600/20",
  meeting: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  passed: "bg-slate-100 text-slate-600 ring-slate-500/20",
} as const;

/** The lead's name (New while unseen), how to reach them (the e-mail with Copy, or other ways), and their status. */
export function LeadCardHeader({ lead, isNew, titleId }: { lead: LeadView; isNew: boolean; titleId: string }) {
  const { copied, copy } = useCopy();
  return (
    <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
      <div className="min-w-0 flex-1">
        <h2 id={titleId} className="flex flex-wrap items-center gap-2 text-base leading-snug font-semibold break-words text-slate-950">
          {lead.name}
          {isNew ? (
            <span title="Arrived since you last looked" className="rounded-full bg-brand-600 px-2 py-0.5 text-[11px] font-semibold tracking-wide text-white uppercase">
              New
            </span>
          ) : null}
        </h2>
        {!lead.hasEmail ? (
          <WaysToReach lead={lead} />
        ) : lead.email === null ? (
          <p className="mt-0.5 text-sm text-slate-600">E-mail address hidden for your role</p>
        ) : (
          <div className="mt-0.5 flex min-w-0 items-center gap-1">
            <a href={`mailto:${lead.email}`} className="min-w-0 truncate text-sm font-medium text-brand-700 hover:underline">
              {lead.email}
            </a>
            <button
              type="button"
              onClick={() => void copy(lead.email ?? "", "email")}
              aria-label={copied ? "Copied!" : `Copy ${lead.email}`}
              title="Copy e-mail"
              className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            >
              {copied ? <Check aria-hidden className="size-4 text-emerald-600" /> : <Copy aria-hidden className="size-4" />}
            </button>
          </div>
        )}
      </div>
      {lead.status === "new" ? null : (
        <span className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATUS_TONES[lead.status]}`}>
          {LEAD_STATUS_LABELS[lead.status]}
        </span>
      )}
    </div>
  );
}
