import { ArrowLeft, Check, ChevronLeft, ChevronRight, ListX, ShieldCheck, Trash2 } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { cardClass } from "~/components/ui/card";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { useClock, useFounderTimeZone } from "~/components/ui/use-clock";
import { formatFounderDateTime } from "~/modules/time/founder-dates";
import type { FormResult } from "~/modules/forms/form-result";
import { HELD_FORM_DAYS, HELD_PAGE_SIZE, HOLD_REASON_LABELS } from "~/modules/held/held-forms";
import type { HeldGroup, HeldList, HeldSubmissionView } from "~/modules/held/held-submissions.server";
import { formatActivityTime } from "~/modules/time/relative-time";
import { ProjectSectionTop } from "../project-section-nav";
import { RecordIdField } from "~/components/ui/form-fields";
import { plural } from "~/modules/formats/counts";

const DISCARD_ALL_BUTTON = primaryButtonClass.replace("bg-brand-600", "bg-red-700").replace("hover:bg-brand-700", "hover:bg-red-800");

const INTENT_LABELS = { intro: "Intro request", subscribe: "Follow updates", signal: "Signal of interest" } as const;

/**
 * Decision 50: forms kept apart because they looked automated (a flood, the hidden field, seconds after opening the
 * page), counted nowhere, each with who sent it, what, when, through which code and why it was held; Accept makes it
 * a lead with its original time, Discard deletes it. The buttons sit at the foot of each card, full width on a phone.
 * Decision 80: paged through all of them with the true total, "Discard all like this" (same reason, same hour, after
 * a confirmation that names the count), the forms refused beyond the ceilings, and the 30 days they are kept.
 */
export function HeldForReviewView({
  project,
  held,
  total,
  page,
  pageCount,
  refused,
  confirm,
  now,
  actionData,
}: HeldList & { now: string; actionData?: FormResult | undefined }) {
  const clock = useClock(now);
  const base = `/project/${project.id}`;
  const pageHref = (to: number) => (to > 1 ? `?page=${to}` : "?");
  return (
    <main className="mx-auto max-w-5xl px-4 pt-6 pb-16 sm:pt-8">
      <PageHeader
        before={<ProjectSectionTop projectId={project.id} current="leads" />}
        title="Held for review"
        subtitle={
          <>
            {plural(total, "form")} kept apart from your leads and numbers: they looked
            automated. Accept a real person to make them a lead, as of when they sent it. Held forms are deleted after {HELD_FORM_DAYS} days.
          </>
        }
      />
      <div className="-mt-2 mb-5 flex flex-wrap gap-2">
        <Link to={`${base}/leads`} className={secondaryButtonClass}>
          <ArrowLeft aria-hidden className="size-4" />
          All leads
        </Link>
      </div>
      {refused > 0 ? (
        <p className="mb-4 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700">
          <span className="font-semibold">{refused.toLocaleString("en-US")} more refused</span> in the last {HELD_FORM_DAYS} days: too many
          came at once to keep for review.
        </p>
      ) : null}
      {actionData ? (
        <p role={actionData.ok ? "status" : "alert"} className={`mb-4 text-sm font-medium ${actionData.ok ? "text-emerald-700" : "text-red-700"}`}>
          {actionData.ok ? actionData.message : actionData.formError}
        </p>
      ) : null}
      {held.length === 0 ? (
        <EmptyState icon={ShieldCheck} title="Nothing held for review" text="Forms that look automated wait here, uncounted, until you accept or discard them." />
      ) : (
        <>
          <Pager page={page} pageCount={pageCount} total={total} hrefOf={pageHref} />
          <ol aria-label="Held for review, newest first" className="space-y-3" start={(page - 1) * HELD_PAGE_SIZE + 1}>
            {held.map((item) => (
              <HeldCard
                key={item.id}
                item={item}
                now={clock}
                likeHref={`${pageHref(page)}${page > 1 ? "&" : ""}like=${item.id}#held-${item.id}`}
                keepHref={`${pageHref(page)}#held-${item.id}`}
                confirming={confirm?.heldId === item.id ? confirm.group : null}
              />
            ))}
          </ol>
          {pageCount > 1 ? <Pager page={page} pageCount={pageCount} total={total} hrefOf={pageHref} /> : null}
        </>
      )}
    </main>
  );
}

/** "Page 2 of 21 · 51–100 of 1,000 held", with links to the newer and older pages. */
function Pager({ page, pageCount, total, hrefOf }: { page: number; pageCount: number; total: number; hrefOf: (page: number) => string }) {
  const first = (page - 1) * HELD_PAGE_SIZE + 1;
  const last = Math.min(total, page * HELD_PAGE_SIZE);
  const link = `${secondaryButtonClass} px-3`;
  return (
    <nav aria-label="Held forms pages" className="mb-3 flex items-center justify-between gap-2 text-sm text-slate-700">
      {page > 1 ? (
        <Link to={hrefOf(page - 1)} className={link} rel="prev">
          <ChevronLeft aria-hidden className="size-4" />
          Newer
        </Link>
      ) : (
        <span />
      )}
      <p>
        {first.toLocaleString("en-US")}–{last.toLocaleString("en-US")} of {total.toLocaleString("en-US")}
        {pageCount > 1 ? <span className="text-slate-500"> · page {page} of {pageCount}</span> : null}
      </p>
      {page < pageCount ? (
        <Link to={hrefOf(page + 1)} className={link} rel="next">
          Older
          <ChevronRight aria-hidden className="size-4" />
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** 'Dec 2, 2026, 3:00 AM to 4:00 AM': an hour on the founder's clock, its date said once. */
function hourInWords(hour: string, timeZone: string): string {
  const from = formatFounderDateTime(hour, timeZone);
  const until = formatFounderDateTime(new Date(hour).getTime() + 3_600_000, timeZone);
  const day = (text: string) => text.slice(0, text.lastIndexOf(", "));
  return day(from) === day(until) ? `${from} to ${until.slice(until.lastIndexOf(", ") + 2)}` : `${from} to ${until}`;
}

function HeldCard({
  item,
  now,
  likeHref,
  keepHref,
  confirming,
}: {
  item: HeldSubmissionView & { group: HeldGroup };
  now: Date;
  likeHref: string;
  keepHref: string;
  confirming: HeldGroup | null;
}) {
  // On the founder's clock, as every founder date (decision 53).
  const timeZone = useFounderTimeZone();
  const exact = formatFounderDateTime(item.receivedAt, timeZone);
  const titleId = `held-${item.id}-name`;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("heldId") === item.id;
  const discardingLike = navigation.state !== "idle" && navigation.formData?.get("intent") === "discard-like";
  return (
    <li id={`held-${item.id}`} aria-labelledby={titleId} className={`${cardClass} scroll-mt-20 p-4 sm:p-5`}>
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
      {confirming ? (
        <Form method="post" role="group" aria-labelledby={`${titleId}-like`} className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3">
          <p id={`${titleId}-like`} className="text-sm text-red-900">
            Discard all {confirming.count.toLocaleString("en-US")} forms held as {HOLD_REASON_LABELS[confirming.reason]}, sent{" "}
            {hourInWords(confirming.hour, timeZone)}? This can&apos;t be undone.
          </p>
          <input type="hidden" name="reason" value={confirming.reason} />
          <input type="hidden" name="hour" value={confirming.hour} />
          <div className="mt-3 grid grid-cols-2 gap-2 sm:flex sm:justify-end">
            <Link to={keepHref} preventScrollReset className={secondaryButtonClass}>
              Keep them
            </Link>
            <button type="submit" name="intent" value="discard-like" disabled={discardingLike} className={DISCARD_ALL_BUTTON}>
              <ListX aria-hidden className="size-4" />
              Discard {confirming.count.toLocaleString("en-US")} forms
            </button>
          </div>
        </Form>
      ) : null}
      <Form method="post" className="mt-4 grid grid-cols-2 gap-2 sm:flex sm:justify-end">
        <RecordIdField name="heldId" id={item.id} />
        <button type="submit" name="intent" value="discard" disabled={busy} className={secondaryButtonClass} aria-label={`Discard ${item.name}'s form`}>
          <Trash2 aria-hidden className="size-4" />
          Discard
        </button>
        <button type="submit" name="intent" value="accept" disabled={busy} className={primaryButtonClass} aria-label={`Accept ${item.name}'s form`}>
          <Check aria-hidden className="size-4" />
          Accept
        </button>
        {item.group.count > 1 && !confirming ? (
          <Link to={likeHref} preventScrollReset className={`${secondaryButtonClass} col-span-2 sm:order-first sm:mr-auto`}>
            <ListX aria-hidden className="size-4" />
            Discard all {item.group.count.toLocaleString("en-US")} like this
          </Link>
        ) : null}
      </Form>
    </li>
  );
}
