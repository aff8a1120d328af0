import { ArrowLeft, Check, ShieldCheck, Trash2 } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { cardClass } from "~/components/ui/card";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { useClock, useFounderTimeZone } from "~/components/ui/use-clock";
import { formatFounderDateTime } from "~/modules/formats/founder-dates";
import type { FormResult } from "~/modules/forms/form-result";
import type { HeldList, HeldSubmissionView } from "~/modules/held/held-submissions.server";
import { formatActivityTime } from "~/modules/time/relative-time";
import { ProjectSectionTop } from "../project-section-nav";

const INTENT_LABELS = { intro: "Intro request", subscribe: "Follow updates", signal: "Signal of interest" } as const;

/**
 * Decision 50: forms kept apart because they looked automated (a flood, the hidden field, seconds after opening the
 * page), counted nowhere, each with who sent it, what, when, through which code and why it was held; Accept makes it
 * a lead with its original time, Discard deletes it. The buttons sit at the foot of each card, full width on a phone.
 */
export function HeldForReviewView({ project, held, now, actionData }: HeldList & { now: string; actionData?: FormResult | undefined }) {
  const clock = useClock(now);
  const base = `/project/${project.id}`;
  return (
    <main className="mx-auto max-w-5xl px-4 pt-6 pb-16 sm:pt-8">
      <PageHeader
        before={<ProjectSectionTop projectId={project.id} current="leads" />}
        title="Held for review"
        subtitle={
          <>
            {held.length.toLocaleString("en-US")} {held.length === 1 ? "form" : "forms"} kept apart from your leads and numbers: they looked
            automated. Accept a real person to make them a lead, as of when they sent it.
          </>
        }
      />
      <div className="-mt-2 mb-5 flex flex-wrap gap-2">
        <Link to={`${base}/leads`} className={secondaryButtonClass}>
          <ArrowLeft aria-hidden className="size-4" />
          All leads
        </Link>
      </div>
      {actionData ? (
        <p role={actionData.ok ? "status" : "alert"} className={`mb-4 text-sm font-medium ${actionData.ok ? "text-emerald-700" : "text-red-700"}`}>
          {actionData.ok ? actionData.message : actionData.formError}
        </p>
      ) : null}
      {held.length === 0 ? (
        <EmptyState icon={ShieldCheck} title="Nothing held for review" text="Forms that look automated wait here, uncounted, until you accept or discard them." />
      ) : (
        <ol aria-label="Held for review, newest first" className="space-y-3">
          {held.map((item) => (
            <HeldCard key={item.id} item={item} now={clock} />
          ))}
        </ol>
      )}
    </main>
  );
}

function HeldCard({ item, now }: { item: HeldSubmissionView; now: Date }) {
  // On the founder's clock, as every founder date (decision 53).
  const timeZone = useFounderTimeZone();
  const exact = formatFounderDateTime(item.receivedAt, timeZone);
  const titleId = `held-${item.id}-name`;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("heldId") === item.id;
  return (
    <li aria-labelledby={titleId} className={`${cardClass} p-4 sm:p-5`}>
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="text-base leading-snug font-semibold break-words text-slate-950">
            {item.name}
          </h2>
          <a href={`mailto:${item.email}`} className="block truncate text-sm font-medium text-brand-700 hover:underline">
            {item.email}
          </a>
        </div>
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{INTENT_LABELS[item.intent]}</span>
      </div>
      <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
        <span className="font-semibold">Held: </span>
        {item.reasonText}
      </p>
      <dl className="mt-3 grid gap-1 text-sm text-slate-700">
        {item.sent.map((line) => (
          <div key={line.label} className="grid grid-cols-[7.5rem_1fr] gap-2">
            <dt className="text-slate-500">{line.label}</dt>
            <dd className="min-w-0 break-words whitespace-pre-line">{line.value || "—"}</dd>
          </div>
        ))}
        <div className="grid grid-cols-[7.5rem_1fr] gap-2">
          <dt className="text-slate-500">Sent</dt>
          <dd>
            <time dateTime={item.receivedAt} title={exact}>
              {formatActivityTime(item.receivedAt, now, timeZone)}
            </time>{" "}
            <span className="text-slate-500">({exact})</span>
          </dd>
        </div>
        <div className="grid grid-cols-[7.5rem_1fr] gap-2">
          <dt className="text-slate-500">QR code</dt>
          <dd>{item.code ?? "Unknown"}</dd>
        </div>
      </dl>
      <Form method="post" className="mt-4 grid grid-cols-2 gap-2 sm:flex sm:justify-end">
        <input type="hidden" name="heldId" value={item.id} />
        <button type="submit" name="intent" value="discard" disabled={busy} className={secondaryButtonClass} aria-label={`Discard ${item.name}'s form`}>
          <Trash2 aria-hidden className="size-4" />
          Discard
        </button>
        <button type="submit" name="intent" value="accept" disabled={busy} className={primaryButtonClass} aria-label={`Accept ${item.name}'s form`}>
          <Check aria-hidden className="size-4" />
          Accept
        </button>
      </Form>
    </li>
  );
}
