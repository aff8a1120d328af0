import { CalendarClock, Check, Copy, Download, ExternalLink, LoaderCircle, MapPin, PhoneCall, Reply } from "lucide-react";
import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { cardClass } from "~/components/ui/card";
import { describedBy, FieldError, FormAlert, inputClass, labelClass, TextAreaField, RecordIdField } from "~/components/ui/form-fields";
import { useCopy } from "~/components/ui/use-copy";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { useSettledResult } from "~/components/ui/use-settled-result";
import { httpUrlOrNull } from "~/components/pitch/safe-url";
import type { FormResult } from "~/modules/forms/form-result";
import { LEAD_ACTION_LABELS, leadTriageSchema } from "~/modules/leads/lead-forms";
import { LEAD_STATUS_LABELS, LEAD_STATUSES, LEAD_TEMPERATURE_LABELS, LEAD_TEMPERATURES, type LeadTemperature } from "~/modules/formats/lead-triage";
import type { LeadActivityItem, LeadActor, LeadView } from "~/modules/leads/leads.server";
import type { LeadStatus } from "~/db/schema";
import { formatAmountRange } from "~/modules/formats/amount";
import { formatActivityTime, formatWaitDuration } from "~/modules/time/relative-time";
import { formatFounderDate, formatFounderDateTime } from "~/modules/formats/founder-dates";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { useProjectAllows } from "~/components/founder/use-project-role";
import { AddLeadEmail, WaysToReach } from "./lead-without-email";

type TriageResult = FormResult & { id?: string };

const STATUS_TONES = {
  contacted: "bg-violet-50 text-violet-700 ring-violet-600/20",
  meeting: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  passed: "bg-slate-100 text-slate-600 ring-slate-500/20",
} as const;

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
  const { copied, copy } = useCopy();
  const timeZone = useFounderTimeZone();
  const canTriage = useProjectAllows("triage");
  return (
    <li
      id={`lead-${lead.id}`}
      aria-labelledby={titleId}
      aria-current={highlighted ? "true" : undefined}
      className={`${cardClass} p-4 sm:p-5 ${highlighted ? "ring-2 ring-brand-500" : ""}`}
    >
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

function ActivityLine({ item, following }: { item: LeadActivityItem; following: boolean }) {
  if (item.kind === "subscription") {
    return (
      <li className="text-sm text-slate-800">
        <span className="font-medium">Followed updates</span>
        {following ? null : <span className="text-slate-500"> (unsubscribed since)</span>}
        {item.at ? <> · <When at={item.at} /></> : null}
      </li>
    );
  }
  const when = <When at={item.at} />;
  if (item.kind === "intro") {
    const linkedin = httpUrlOrNull(item.linkedinUrl);
    return (
      <li className="text-sm text-slate-800">
        <span className="font-medium">Requested an intro</span> · {when}
        {item.roleTags.length ? (
          <span className="mt-1 flex flex-wrap gap-1">
            {item.roleTags.map((tag) => (
              <span key={tag} className="rounded-md bg-violet-50 px-1.5 py-0.5 text-xs font-medium text-violet-700">
                {tag}
              </span>
            ))}
          </span>
        ) : null}
        {linkedin ? (
          <a href={linkedin} target="_blank" rel="noopener noreferrer nofollow" className="mt-1 inline-flex items-center gap-1 text-xs font-medium text-brand-700 hover:underline">
            <ExternalLink aria-hidden className="size-3.5" />
            LinkedIn
          </a>
        ) : null}
        {item.note ? <blockquote className="mt-1 rounded-lg bg-slate-50 px-3 py-2 text-sm break-words whitespace-pre-line text-slate-700">{item.note}</blockquote> : null}
      </li>
    );
  }
  if (item.kind === "reply") return <ReplyLine item={item} />;
  if (item.kind === "change") return <ChangeLine item={item} />;
  if (item.kind === "met") {
    const linkedin = httpUrlOrNull(item.linkedinUrl);
    return (
      <li className="text-sm text-slate-800" data-met-in-person>
        <span className="font-medium">Met in person at {item.event}</span> · added by {item.addedBy} · {when}
        {linkedin ? (
          <a href={linkedin} target="_blank" rel="noopener noreferrer nofollow" className="mt-1 flex w-fit items-center gap-1 text-xs font-medium text-brand-700 hover:underline">
            <ExternalLink aria-hidden className="size-3.5" />
            LinkedIn
          </a>
        ) : null}
        {item.note ? <blockquote className="mt-1 rounded-lg bg-slate-50 px-3 py-2 text-sm break-words whitespace-pre-line text-slate-700">{item.note}</blockquote> : null}
      </li>
    );
  }
  if (item.kind === "call") {
    return (
      <li className="text-sm text-slate-800">
        <span className="font-medium">{actorName(item.by)} called</span> · {when}
        {item.note ? <blockquote className="mt-1 rounded-lg bg-slate-50 px-3 py-2 text-sm break-words whitespace-pre-line text-slate-700">{item.note}</blockquote> : null}
      </li>
    );
  }
  return (
    <li className="text-sm text-slate-800">
      <span className="font-medium">
        Signaled interest: {item.rangeLabel} {formatAmountRange(item.rangeMin, item.rangeMax)}
      </span>{" "}
      <span className="text-xs text-slate-500">({item.isPublic ? (item.message ? (item.messagePublic ? "name and message on the wall" : "name on the wall, message private") : "on the wall") : "private"})</span> · {when}
      {item.message ? (
        <blockquote className="mt-1 rounded-lg bg-slate-50 px-3 py-2 text-sm break-words whitespace-pre-line text-slate-700">{item.message}</blockquote>
      ) : null}
    </li>
  );
}

/** "You" for the person looking, else the member's name (decision 61). */
function actorName(by: LeadActor): string {
  return by.you ? "You" : by.name;
}

/** A member's change to the lead's triage, who made it and when (decision 61). */
function ChangeLine({ item }: { item: Extract<LeadActivityItem, { kind: "change" }> }) {
  const what =
    item.field === "status"
      ? `marked ${LEAD_STATUS_LABELS[item.value as LeadStatus] ?? item.value}`
      : item.field === "temperature"
        ? item.value
          ? `marked ${LEAD_TEMPERATURE_LABELS[item.value as LeadTemperature] ?? item.value}`
          : "cleared the temperature"
        : item.value
          ? "edited the note"
          : "cleared the note";
  return (
    <li className="text-xs text-slate-600">
      {actorName(item.by)} {what} · <When at={item.at} />
    </li>
  );
}

/** A reply the founder sent, with its meeting: the subject at once, the text on demand (it can be long). */
function ReplyLine({ item }: { item: Extract<LeadActivityItem, { kind: "reply" }> }) {
  const timeZone = useFounderTimeZone();
  return (
    <li className="text-sm text-slate-800">
      <span className="font-medium">
        {actorName(item.by)} replied: {item.subject}
      </span> · <WhenSent at={item.at} />
      {item.meeting ? (
        <span className="mt-1 flex items-center gap-1 text-xs font-medium text-emerald-800">
          <CalendarClock aria-hidden className="size-3.5" />
          Meeting proposed for {formatFounderDateTime(item.meeting.startsAt, timeZone)}, {item.meeting.minutes} min
        </span>
      ) : null}
      <details className="mt-1">
        <summary className="cursor-pointer text-xs font-medium text-brand-700">Show what was sent</summary>
        <blockquote className="mt-1 rounded-lg bg-slate-50 px-3 py-2 text-sm break-words whitespace-pre-line text-slate-700">{item.body}</blockquote>
      </details>
    </li>
  );
}

/** When a reply went: the date and time, since several may go the same day. */
function WhenSent({ at }: { at: string }) {
  const timeZone = useFounderTimeZone();
  return (
    <time dateTime={at} className="text-xs text-slate-500">
      {formatFounderDateTime(at, timeZone)}
    </time>
  );
}

function When({ at }: { at: string }) {
  const timeZone = useFounderTimeZone();
  return (
    <time dateTime={at} className="text-xs text-slate-500">
      {formatFounderDate(at, timeZone)}
    </time>
  );
}

function TriageForm({ projectId, lead, documentResult }: { projectId: string; lead: LeadView; documentResult?: TriageResult | undefined }) {
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
            id={status.id}
            name={status.name}
            defaultValue={lead.status}
            data-error-slot={status["data-error-slot"]}
            aria-invalid={status.error ? true : undefined}
            aria-describedby={describedBy(status.error && `${status.id}-error`)}
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

/**
 * A person only met in person waits for nobody, so they have no clock (decision 84) until the founder says they owe
 * them a follow-up: 'Awaiting my follow-up' starts it.
 */
function MetOnlyClock({ projectId, lead, canTriage }: { projectId: string; lead: LeadView; canTriage: boolean }) {
  const fetcher = useFetcher<TriageResult>();
  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => {
    if (!result.ok) toast.error(result.formError);
  });
  return (
    <fetcher.Form method="post" action={`/project/${projectId}/leads`} className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <input type="hidden" name="intent" value="awaiting" />
      <RecordIdField name="leadId" id={lead.id} />
      <span>Met in person: not waiting for an answer.</span>
      {canTriage ? (
        <button type="submit" disabled={fetcher.state !== "idle"} className={`${secondaryButtonClass} py-1.5 text-xs`}>
          Awaiting my follow-up
        </button>
      ) : null}
    </fetcher.Form>
  );
}

/** The response clock (issue 28): how long the lead has waited for the founder's first answer, or how long it took. */
function ResponseClock({ lead, awaitingSince, now }: { lead: LeadView; awaitingSince: string; now: Date }) {
  const waitedFrom = Date.parse(awaitingSince);
  if (lead.firstResponseAt) {
    return (
      <span className="rounded-full bg-emerald-50 px-2 py-0.5 font-medium text-emerald-800">
        Answered in {formatWaitDuration(Date.parse(lead.firstResponseAt) - waitedFrom)}
      </span>
    );
  }
  return (
    <span suppressHydrationWarning className="rounded-full bg-amber-50 px-2 py-0.5 font-semibold text-amber-900">
      Waiting {formatWaitDuration(now.getTime() - waitedFrom)}
    </span>
  );
}

const TEMPERATURE_TONES = {
  hot: "aria-pressed:bg-rose-600 aria-pressed:text-white aria-pressed:ring-rose-600",
  warm: "aria-pressed:bg-amber-500 aria-pressed:text-slate-950 aria-pressed:ring-amber-500",
  cold: "aria-pressed:bg-sky-700 aria-pressed:text-white aria-pressed:ring-sky-700",
} as const;

/**
 * Hot, warm or cold in one tap (issue 28 item 5): three submit buttons, so it works by keyboard and without
 * JavaScript; the chosen one is pressed, and tapping it again clears it. Shown at once, before the server answers.
 */
function TemperatureButtons({ projectId, lead }: { projectId: string; lead: LeadView }) {
  const fetcher = useFetcher<TriageResult>();
  const sent = fetcher.formData?.get("temperature");
  const current = typeof sent === "string" ? (sent === "none" ? null : sent) : lead.temperature;
  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => {
    if (!result.ok) toast.error(result.formError);
  });
  return (
    <fetcher.Form method="post" action={`/project/${projectId}/leads`} aria-label={`How warm ${lead.name} is`} className="mt-3 flex items-center gap-2">
      <input type="hidden" name="intent" value="temperature" />
      <RecordIdField name="leadId" id={lead.id} />
      <span className="text-xs font-medium text-slate-600">Temperature</span>
      <div className="grid flex-1 grid-cols-3 gap-1.5 sm:flex-none">
        {LEAD_TEMPERATURES.map((value) => (
          <button
            key={value}
            type="submit"
            name="temperature"
            value={current === value ? "none" : value}
            aria-pressed={current === value}
            className={`min-h-11 rounded-lg bg-white px-3 text-sm font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 sm:min-h-9 sm:min-w-20 ${TEMPERATURE_TONES[value]}`}
          >
            {LEAD_TEMPERATURE_LABELS[value]}
          </button>
        ))}
      </div>
    </fetcher.Form>
  );
}

/**
 * Reply (the composer, decision 57) and 'Log a call' (one tap, a line in the history that counts as the response),
 * large enough for a thumb.
 */
function FollowUpActions({ projectId, lead }: { projectId: string; lead: LeadView }) {
  const fetcher = useFetcher<TriageResult>();
  const busy = fetcher.state !== "idle";
  useSettledResult(fetcher.data, !busy, (result) => (result.ok ? toast.success(`${lead.name}: call logged`) : toast.error(result.formError)));
  return (
    <div className="mt-3 grid grid-cols-2 gap-2 sm:flex sm:justify-start">
      {/* Met without an e-mail: nothing to reply to until one is added (decision 92). */}
      {lead.hasEmail ? (
        <Link to={`/project/${projectId}/leads/${lead.id}/reply`} className={`${primaryButtonClass} min-h-11 sm:min-h-9`} aria-label={`Reply to ${lead.name}`}>
          <Reply aria-hidden className="size-4" />
          Reply
        </Link>
      ) : null}
      <fetcher.Form method="post" action={`/project/${projectId}/leads`} aria-label={`Log a call with ${lead.name}`} className="contents">
        <input type="hidden" name="intent" value="call" />
        <RecordIdField name="leadId" id={lead.id} />
        <button type="submit" disabled={busy} className={`${secondaryButtonClass} min-h-11 sm:min-h-9`}>
          {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <PhoneCall aria-hidden className="size-4" />}
          Log a call
        </button>
      </fetcher.Form>
    </div>
  );
}
