import { CalendarClock, ExternalLink } from "lucide-react";
import { httpUrlOrNull } from "~/components/pitch/safe-url";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import type { LeadStatus } from "~/db/schema";
import { formatAmountRange } from "~/modules/formats/amount";
import { formatFounderDate, formatFounderDateTime } from "~/modules/time/founder-dates";
import { LEAD_STATUS_LABELS, LEAD_TEMPERATURE_LABELS, type LeadTemperature } from "~/modules/formats/lead-triage";
import type { LeadActivityItem, LeadActor } from "~/modules/leads/inbox/lead-views.server";

/** One line of a lead's history: an intro, a subscription, a signal, a reply, a call, a meeting in person or a change. */
export function ActivityLine({ item, following }: { item: LeadActivityItem; following: boolean }) {
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
      </span> · <When at={item.at} withTime />
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

/** When it happened: the date; a reply's also its time (`withTime`), since several may go the same day. */
function When({ at, withTime = false }: { at: string; withTime?: boolean }) {
  const timeZone = useFounderTimeZone();
  return (
    <time dateTime={at} className="text-xs text-slate-500">
      {withTime ? formatFounderDateTime(at, timeZone) : formatFounderDate(at, timeZone)}
    </time>
  );
}
