import { MapPin } from "lucide-react";
import { cardClass } from "~/components/ui/card";
import { LEAD_ACTION_LABELS } from "~/modules/leads/lead-forms";
import { LEAD_TEMPERATURE_LABELS } from "~/modules/formats/lead-triage";
import type { LeadView } from "~/modules/leads/inbox/lead-views.server";
import { formatActivityTime } from "~/modules/time/relative-time";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { useProjectAllows } from "~/components/founder/use-project-role";
import { AddLeadEmail } from "./lead-without-email";
import { ActivityLine } from "./card/activity-line";
import { FollowUpActions } from "./card/follow-up-actions";
import { LeadCardHeader } from "./card/lead-card-header";
import { LeadReadingSummary } from "./card/lead-reading";
import { MetOnlyClock, ResponseClock } from "./card/response-clock";
import { TemperatureButtons } from "./card/temperature-buttons";
import { TriageForm } from "./card/triage-form";
import type { TriageResult } from "./card/triage-result";

const ACTION_TONES = { intro: "bg-violet-50 text-violet-700", subscription: "bg-amber-50 text-amber-800", signal: "bg-emerald-50 text-emerald-700" } as const;

/** One person: who they are, what they did and where, and the founder's private status and note. */
export function LeadCard({
  projectId,
  lead,
  isNew,
  now,
  documentResult,
  highlighted = false,
}: {
  projectId: string;
  lead: LeadView;
  isNew: boolean;
  /** The lead a founder alert linked to (`?lead=`). */
  highlighted?: boolean;
  now: Date;
  /** The result of a triage post made without JavaScript, when it was this lead's. */
  documentResult?: TriageResult | undefined;
}) {
  const titleId = `lead-${lead.id}-name`;
  const timeZone = useFounderTimeZone();
  const canTriage = useProjectAllows("triage");
  return (
    <li
      id={`lead-${lead.id}`}
      aria-labelledby={titleId}
      aria-current={highlighted ? "true" : undefined}
      className={`${cardClass} p-4 sm:p-5 ${highlighted ? "ring-2 ring-brand-500" : ""}`}
    >
      <LeadCardHeader lead={lead} isNew={isNew} titleId={titleId} />

      <p className="mt-2 flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
        {lead.actions.map((action) => (
          <span key={action} className={`rounded-full px-2 py-0.5 font-semibold ${ACTION_TONES[action]}`}>
            {LEAD_ACTION_LABELS[action]}
          </span>
        ))}
        <span className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 font-medium text-slate-700">
          <MapPin aria-hidden className="size-3" />
          {lead.event.kind === "code" ? `Met at ${lead.event.name}` : lead.event.name}
        </span>
        <time dateTime={lead.lastActivityAt} suppressHydrationWarning className="text-slate-500">
          {formatActivityTime(lead.lastActivityAt, now, timeZone)}
        </time>
        {lead.awaitingSince ? <ResponseClock lead={lead} awaitingSince={lead.awaitingSince} now={now} /> : null}
      </p>
      {lead.awaitingSince === null ? <MetOnlyClock projectId={projectId} lead={lead} canTriage={canTriage} /> : null}

      {canTriage ? (
        <TemperatureButtons projectId={projectId} lead={lead} />
      ) : lead.temperature ? (
        <p className="mt-3 text-sm font-semibold text-slate-800">{LEAD_TEMPERATURE_LABELS[lead.temperature]}</p>
      ) : null}

      {lead.reading ? <LeadReadingSummary projectId={projectId} lead={lead} reading={lead.reading} canTriage={canTriage} /> : null}

      {lead.answer ? (
        <p className="mt-3 rounded-lg bg-brand-50/60 px-3 py-2 text-sm text-slate-800 ring-1 ring-brand-100" data-qualifying-answer>
          <span className="block text-xs font-medium text-slate-500">{lead.answer.question}</span>
          <span className="font-semibold break-words">{lead.answer.answer}</span>
        </p>
      ) : null}

      {canTriage && !lead.hasEmail ? <AddLeadEmail projectId={projectId} lead={lead} /> : null}
      {canTriage ? <FollowUpActions projectId={projectId} lead={lead} /> : null}

      <ul aria-label={`What ${lead.name} did`} className="mt-3 space-y-2 border-l-2 border-slate-100 pl-3">
        {lead.activity.map((item, index) => (
          <ActivityLine key={`${item.kind}-${item.at}-${index}`} item={item} following={lead.following} />
        ))}
      </ul>

      {canTriage ? (
        <TriageForm projectId={projectId} lead={lead} documentResult={documentResult} />
      ) : lead.note ? (
        <p className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-sm break-words whitespace-pre-line text-slate-700">{lead.note}</p>
      ) : null}
    </li>
  );
}
