import { ArrowLeft, CalendarClock, FilePenLine, LoaderCircle, Mail, Send } from "lucide-react";
import { useState, type ComponentProps } from "react";
import { Form, Link, useNavigation } from "react-router";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { cardClass } from "~/components/ui/card";
import { fieldControl, FieldError, FormAlert, inputClass, labelClass, TextAreaField, TextField } from "~/components/ui/form-fields";
import { PageHeader } from "~/components/ui/page-header";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import type { FormResult } from "~/modules/forms/form-result";
import { localParts } from "~/modules/time/zoned-slots";
import { leadReplySchema, mailtoHref, MEETING_LENGTHS } from "~/modules/leads/replies/reply-form";
import type { openReplyComposer } from "~/modules/leads/replies/lead-replies.server";
import { ProjectSectionTop } from "../project-section-nav";
import { SetupWarningBanner } from "../setup-warning-banner";
import type { OperatorBanner } from "~/modules/operator/operator-banner";

type LeadReplyViewProps = {
  composer: Awaited<ReturnType<typeof openReplyComposer>>;
  founderEmail: string;
  /** Whether the founder chose a zone (decision 53); until then meetings are proposed in UTC, and the form says so. */
  timeZoneSet: boolean;
  now: string;
  setupBanner?: OperatorBanner | null;
  actionData?: FormResult | undefined;
};

/** 'YYYY-MM-DD' of the founder's today: the date picker's earliest day. */
function founderToday(now: string, timeZone: string): string {
  const today = localParts(new Date(now), timeZone);
  return `${today.year}-${String(today.month).padStart(2, "0")}-${String(today.day).padStart(2, "0")}`;
}

/**
 * The reply composer (decision 57), phone first: the template filled in for the lead, a counter
 * under the 10,000-character limit, an optional meeting on the founder's clock, one large Send, and 'Open in my mail
 * app' with the same text for founders who prefer their own mail program. A plain form: it works before JavaScript.
 */
/** A reply's message, plain text: counted, not cut, so the founder may type past the limit and sees the counter turn red. */
export function ReplyMessageField({
  field: { maxLength, ...field },
  body,
  onBody,
  hint,
}: {
  field: Omit<ComponentProps<typeof TextAreaField>, "label"> & { maxLength?: number };
  body: string;
  onBody: (body: string) => void;
  hint: string;
}) {
  return (
    <TextAreaField
      {...field}
      label="Message"
      rows={12}
      value={body}
      counter={{ length: body.trim().length, max: maxLength ?? 0 }}
      onChange={(event) => onBody(event.target.value)}
      hint={hint}
    />
  );
}

export function LeadReplyView({ composer, founderEmail, timeZoneSet, now, setupBanner = null, actionData }: LeadReplyViewProps) {
  const { project, lead, timeZone } = composer;
  const echoed = actionData && !actionData.ok ? actionData.values : undefined;
  const echo = (name: string) => (typeof echoed?.[name] === "string" ? (echoed[name] as string) : undefined);
  const [subject, setSubject] = useState(echo("subject") ?? composer.subject);
  const [body, setBody] = useState(echo("body") ?? composer.body);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { form, field, formError } = useSchemaForm(leadReplySchema, { id: "reply", lastResult: actionData, busy });
  const subjectField = field("subject");
  const date = field("meetingDate");
  const time = field("meetingTime");
  const minutes = field("meetingMinutes");
  const backTo = `/project/${project.id}/leads?lead=${lead.id}`;

  return (
    <main className="mx-auto max-w-2xl px-4 pt-6 pb-16 sm:pt-8">
      <PageHeader
        before={<ProjectSectionTop projectId={project.id} current="leads" />}
        title={`Reply to ${lead.name}`}
        subtitle={
          <>
            To <span className="font-medium text-slate-800">{lead.email}</span>. Their answer comes back to you at{" "}
            <span className="font-medium text-slate-800">{founderEmail}</span>.
          </>
        }
      />
      <div className="-mt-2 mb-5 flex flex-wrap gap-2">
        <Link to={backTo} className={`${secondaryButtonClass} min-h-11`}>
          <ArrowLeft aria-hidden className="size-4" />
          Back to the lead
        </Link>
        <Link to={`/project/${project.id}/leads/template`} className={`${secondaryButtonClass} min-h-11`}>
          <FilePenLine aria-hidden className="size-4" />
          Edit template
        </Link>
      </div>
      <SetupWarningBanner banner={setupBanner} className="mb-5" />

      <Form method="post" {...form} aria-label={`Reply to ${lead.name}`} className={`${cardClass} space-y-4 p-4 sm:p-6`}>
        <TextField {...subjectField} label="Subject" value={subject} onChange={(event) => setSubject(event.target.value)} autoComplete="off" />
        <ReplyMessageField field={field("body")} body={body} onBody={setBody} hint="Plain text. Sent from this app's address; replies go to you." />

        <div className="flex flex-wrap items-center gap-x-3 gap-y-3 rounded-xl border border-slate-200 p-3">
          {/* The meeting's fields follow the box by CSS, so they open without JavaScript too. */}
          <input
            id="reply-proposeMeeting"
            name="proposeMeeting"
            type="checkbox"
            defaultChecked={echo("proposeMeeting") === "on"}
            className="peer size-6 shrink-0 rounded border-slate-300 accent-brand-600"
          />
          <label htmlFor="reply-proposeMeeting" className="flex min-h-11 flex-1 items-center gap-2 text-base font-medium text-slate-900">
            <CalendarClock aria-hidden className="size-5 text-brand-700" />
            Propose a meeting
          </label>
          <fieldset className="hidden basis-full gap-3 peer-checked:grid sm:grid-cols-3">
            <legend className="mb-2 text-sm text-slate-600">
              {timeZoneSet ? (
                <>In your time zone, {timeZone}. The e-mail carries a calendar invitation.</>
              ) : (
                <>
                  In {timeZone}: you have not chosen your time zone yet (<Link to="/my-projects" className="font-medium text-brand-700 underline">My Projects</Link>). The
                  e-mail carries a calendar invitation.
                </>
              )}
            </legend>
            <div>
              <label htmlFor={date.id} className={labelClass}>
                Date
              </label>
              <input
                {...fieldControl(date)}
                type="date"
                min={founderToday(now, timeZone)}
                defaultValue={echo("meetingDate")}
                className={`${inputClass} min-h-11`}
              />
              <FieldError id={`${date.id}-error`} message={date.error} />
            </div>
            <div>
              <label htmlFor={time.id} className={labelClass}>
                Start time
              </label>
              <input
                {...fieldControl(time)}
                type="time"
                step={300}
                defaultValue={echo("meetingTime")}
                className={`${inputClass} min-h-11`}
              />
              <FieldError id={`${time.id}-error`} message={time.error} />
            </div>
            <div>
              <label htmlFor={minutes.id} className={labelClass}>
                Length
              </label>
              <select
                {...fieldControl(minutes)}
                defaultValue={echo("meetingMinutes") ?? "30"}
                className={`${inputClass} min-h-11`}
              >
                {MEETING_LENGTHS.map((length) => (
                  <option key={length} value={length}>
                    {length < 60 ? `${length} minutes` : length === 60 ? "1 hour" : `${length / 60} hours`}
                  </option>
                ))}
              </select>
              <FieldError id={`${minutes.id}-error`} message={minutes.error} />
            </div>
          </fieldset>
        </div>

        <FormAlert message={formError} />

        <div className="grid gap-2 sm:flex sm:flex-row-reverse sm:justify-start">
          <button type="submit" disabled={busy} className={`${primaryButtonClass} min-h-12 text-base sm:min-h-10 sm:text-sm`}>
            {busy ? <LoaderCircle aria-hidden className="size-5 animate-spin" /> : <Send aria-hidden className="size-5" />}
            {busy ? "Sending..." : "Send reply"}
          </button>
          <a href={mailtoHref(lead.email, subject, body)} className={`${secondaryButtonClass} min-h-12 text-base sm:min-h-10 sm:text-sm`}>
            <Mail aria-hidden className="size-5" />
            Open in my mail app
          </a>
        </div>
        <p className="text-xs text-slate-500">
          Sending marks {lead.name} as Contacted (Meeting with an invitation) and adds the message to their history. &lsquo;Open in my mail
          app&rsquo; sends nothing from here: set the status yourself afterwards.
        </p>
      </Form>
    </main>
  );
}
