import { ChevronDown, ChevronRight, Contact, Download, FilePenLine, Inbox, SearchX, Settings2, ShieldAlert } from "lucide-react";
import { Form, Link, useRevalidator } from "react-router";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { inputClass, labelClass } from "~/components/ui/form-fields";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { useClock } from "~/components/ui/use-clock";
import type { FormResult } from "~/modules/forms/form-result";
import {
  LEAD_SEARCH_MAX_LENGTH,
  LEAD_SORT_LABELS,
  LEAD_SORTS,
  LEAD_ACTION_LABELS,
  LEAD_ACTIONS,
  leadFilterQuery,
  type LeadFilters,
} from "~/modules/leads/lead-forms";
import { LEAD_STATUS_LABELS, LEAD_STATUSES, LEAD_TEMPERATURE_LABELS, LEAD_TEMPERATURES } from "~/modules/formats/lead-triage";
import type { LeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { ProjectSectionTop } from "../project-section-nav";
import { SetupWarningBanner } from "../setup-warning-banner";
import type { OperatorBanner } from "~/modules/operator/operator-banner";
import { LeadCard } from "./lead-card";
import { useProjectAllows } from "../use-project-role";
import { AddPerson, type CaptureCode } from "./capture-sheet";
import { defaultBoothCode, PLAIN_PITCH_CODE, PLAIN_PITCH_LABEL } from "~/modules/booth/booth-codes";
import { plural } from "~/modules/formats/counts";

export type LeadsViewProps = {
  inbox: LeadInbox;
  filters: LeadFilters;
  now: string;
  actionData?: (FormResult & { id?: string }) | undefined;
  /** Mail that reaches nobody (no SMTP_URL, or a sender at localhost): the founder's alerts among it. */
  setupBanner?: OperatorBanner | null;
  /** The signed-in member, who adds people met in person ('Add a person'). */
  memberId: string;
};

/** Every person who acted on a project, newest activity first, to read, triage and follow up. */
export function LeadsView({ inbox, filters, now, actionData, setupBanner = null, memberId }: LeadsViewProps) {
  const clock = useClock(now);
  const { project } = inbox;
  const filtered = Boolean(filters.action || filters.event || filters.status || filters.temperature || filters.answer || filters.read || filters.q || filters.lead);
  const waitingView = filters.view === "unanswered";
  const newCount = inbox.newSinceLastVisit;
  const base = `/project/${project.id}`;
  const canExport = useProjectAllows("export");
  const canTriage = useProjectAllows("triage");
  const canChangeSettings = useProjectAllows("settings");
  const { after: _after, ...currentFilters } = filters;
  const revalidator = useRevalidator();
  /** The inbox's leads as cards, new since the last visit marked, `highlighted` telling which stand out. */
  const leadList = (label: string, highlighted: (lead: LeadInbox["leads"][number]) => boolean) => (
    <ol aria-label={label} className="space-y-3">
      {inbox.leads.map((lead) => (
        <LeadCard
          key={lead.id}
          projectId={project.id}
          lead={lead}
          isNew={!inbox.previousVisitAt || lead.firstSeenAt > inbox.previousVisitAt}
          highlighted={highlighted(lead)}
          now={clock}
          documentResult={actionData?.id === lead.id ? actionData : undefined}
        />
      ))}
    </ol>
  );

  return (
    <main className="mx-auto max-w-5xl px-4 pt-6 pb-16 sm:pt-8">
      <PageHeader
        before={<ProjectSectionTop projectId={project.id} current="leads" />}
        title={`Leads: ${project.title}`}
        subtitle={
          <>
            {inboxCountsLine(inbox.acted, inbox.metInPerson)}
            {newCount ? <span className="font-semibold text-brand-700"> · {newCount} new since you last looked</span> : null}
          </>
        }
      />

      {filters.lead ? (
        // The alert's lead first, above banners and tools: on a phone it is what the founder came for.
        <section aria-label="The lead from your alert" className="mb-6">
          <p role="status" className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
            {inbox.leads.length ? "The lead from your alert." : "This lead is not in this project's inbox."}
            <Link to={`${base}/leads`} className="font-semibold text-brand-700 hover:underline">
              Show all leads
            </Link>
          </p>
          {inbox.leads.length ? (
            leadList("The lead from your alert", () => true)
          ) : null}
        </section>
      ) : null}

      <SetupWarningBanner banner={setupBanner} className="mb-5" />

      {canTriage ? (
        <div className="mb-5">
          <AddPerson projectId={project.id} memberId={memberId} codes={captureCodes(inbox.events)} tone="light" onSynced={() => void revalidator.revalidate()} />
        </div>
      ) : null}

      {/* Below the title rather than beside it, so the buttons wrap on a phone instead of widening the page. */}
      <div className="-mt-2 mb-5 flex flex-wrap gap-2">
        {canExport ? (
          <a href={`${base}/leads.vcf${leadFilterQuery(currentFilters)}`} download className={secondaryButtonClass}>
            <Download aria-hidden className="size-4" />
            Download vCards
          </a>
        ) : null}
        <Link to={`${base}/leads/settings`} className={secondaryButtonClass}>
          <Settings2 aria-hidden className="size-4" />
          Lead settings
        </Link>
        {canChangeSettings ? (
          <Link to={`${base}/leads/template`} className={secondaryButtonClass}>
            <FilePenLine aria-hidden className="size-4" />
            Follow-up template
          </Link>
        ) : null}
        {canChangeSettings && inbox.heldForReview ? (
          <Link to={`${base}/leads/held`} className={secondaryButtonClass}>
            <ShieldAlert aria-hidden className="size-4" />
            {inbox.heldForReview.toLocaleString("en-US")} held for review
          </Link>
        ) : null}
      </div>

      <nav aria-label="Which leads" className="mb-3 grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1 text-sm font-semibold sm:inline-grid">
        <Link
          to={`${base}/leads${leadFilterQuery({ ...currentFilters, lead: null, view: null })}`}
          aria-current={waitingView ? undefined : "page"}
          className={`rounded-lg px-4 py-2.5 text-center ${waitingView ? "text-slate-700 hover:text-slate-950" : "bg-white text-slate-950 shadow-sm"}`}
        >
          All leads
        </Link>
        <Link
          to={`${base}/leads${leadFilterQuery({ ...currentFilters, lead: null, view: "unanswered" })}`}
          aria-current={waitingView ? "page" : undefined}
          className={`rounded-lg px-4 py-2.5 text-center ${waitingView ? "bg-white text-slate-950 shadow-sm" : "text-slate-700 hover:text-slate-950"}`}
        >
          Unanswered ({inbox.unanswered.toLocaleString("en-US")})
        </Link>
      </nav>

      {/* Keyed by the filters so 'Clear' and links reset the fields (they are uncontrolled, filled from the URL). */}
      <FilterBar key={leadFilterQuery(currentFilters)} filters={filters} events={inbox.events} question={inbox.question} action={`${base}/leads`} />

      {filters.lead ? null : inbox.leads.length === 0 ? (
        waitingView && !filtered ? (
          <EmptyState icon={Inbox} title="No one is waiting" text="Every lead has had an answer from you: a status other than New counts as one." />
        ) : filtered ? (
          <EmptyState
            icon={SearchX}
            title="No leads match these filters"
            text="Try another name, or clear the filters to see everyone."
            action={
              <Link to={`${base}/leads`} className={secondaryButtonClass}>
                Clear filters
              </Link>
            }
          />
        ) : (
          <EmptyState
            icon={Inbox}
            title="No leads yet"
            text="When someone requests an intro, follows updates or signals interest on your pitch page, they appear here."
            action={
              <Link to={`${base}/qr-codes`} className={primaryButtonClass}>
                Print a QR code
              </Link>
            }
          />
        )
      ) : (
        leadList(waitingView ? "Leads waiting for an answer, longest waiting first" : "Leads, newest activity first", (lead) => filters.lead === lead.id)
      )}

      {inbox.nextCursor || filters.after ? (
        <nav aria-label="Pages" className="mt-6 flex flex-wrap items-center justify-between gap-3">
          {filters.after ? (
            <Link to={`${base}/leads${leadFilterQuery(currentFilters)}`} className={secondaryButtonClass}>
              {waitingView ? "Longest waiting" : "Newest leads"}
            </Link>
          ) : (
            <span />
          )}
          {inbox.nextCursor ? (
            <Link to={`${base}/leads${leadFilterQuery({ ...currentFilters, after: inbox.nextCursor })}`} className={secondaryButtonClass}>
              {waitingView ? "Waiting less long" : "Older leads"}
              <ChevronRight aria-hidden className="size-4" />
            </Link>
          ) : null}
        </nav>
      ) : null}
      <p className="mt-8 flex items-start gap-2 text-xs text-slate-500">
        <Contact aria-hidden className="mt-0.5 size-3.5 shrink-0" />
        Status and notes are for your team only: they never appear on your pitch page or in any e-mail to the person.
      </p>
    </main>
  );
}

function FilterBar({ filters, events, question, action }: { filters: LeadFilters; events: LeadInbox["events"]; question: LeadInbox["question"]; action: string }) {
  const seesAddresses = useProjectAllows("addresses");
  const refined = Boolean(filters.action || filters.event || filters.status || filters.temperature || filters.answer || filters.read || filters.sort);
  return (
    <Form method="get" action={action} role="search" aria-label="Filter leads" className="mb-5 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      {filters.view ? <input type="hidden" name="view" value={filters.view} /> : null}
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] lg:items-end">
        <div className="col-span-2 sm:col-span-4 lg:col-span-2">
          <label htmlFor="lead-search" className={labelClass}>
            Search
          </label>
          <input id="lead-search" type="search" name="q" defaultValue={filters.q ?? ""} placeholder={seesAddresses ? "Name or e-mail" : "Name"} maxLength={LEAD_SEARCH_MAX_LENGTH} className={inputClass} />
        </div>
        {/* On a phone the choices below fold under "More filters" (a checkbox, so it works before and without
            JavaScript), open when one of them is in use; from sm up they are always shown. */}
        <input id="lead-more-filters" type="checkbox" defaultChecked={refined} className="peer sr-only sm:hidden" />
        <label
          htmlFor="lead-more-filters"
          className="col-span-2 flex min-h-11 cursor-pointer items-center justify-between rounded-lg border border-slate-200 px-3 text-sm font-semibold text-slate-800 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 sm:hidden"
        >
          <span>More filters{refined ? " (in use)" : ""}</span>
          <ChevronDown aria-hidden className="size-4 text-slate-500" />
        </label>
        <div className="col-span-2 hidden grid-cols-2 gap-3 peer-checked:grid sm:col-span-4 sm:grid sm:grid-cols-4 lg:contents">
          <FilterChoice name="action" label="Action" any="Any action" value={filters.action} options={LEAD_ACTIONS.map((value) => [value, LEAD_ACTION_LABELS[value]])} />
          <FilterChoice name="event" label="Event" any="Any event" value={filters.event} options={events.map((event) => [event.source, event.name])} />
          <FilterChoice name="status" label="Status" any="Any status" value={filters.status} options={LEAD_STATUSES.map((value) => [value, LEAD_STATUS_LABELS[value]])} />
          <FilterChoice
            name="temperature"
            label="Temperature"
            any="Any"
            value={filters.temperature}
            options={LEAD_TEMPERATURES.map((value) => [value, LEAD_TEMPERATURE_LABELS[value]])}
          />
          <FilterChoice name="read" label="Deck" any="Any" value={filters.read} options={[["deck", "Read the deck"]]} />
          {question?.options.length ? (
            <FilterChoice
              name="answer"
              label="Answer"
              any="Any answer"
              value={filters.answer}
              options={question.options.map((option) => [option, option])}
              description={question.prompt}
              className="col-span-2 sm:col-span-1"
            />
          ) : null}
          <FilterChoice
            name="sort"
            label="Order"
            any={filters.view === "unanswered" ? "Longest waiting" : "Newest activity"}
            value={filters.sort}
            options={LEAD_SORTS.map((value) => [value, LEAD_SORT_LABELS[value]])}
            className="col-span-2 sm:col-span-1"
          />
        </div>
        <div className="col-span-2 flex gap-2 sm:col-span-3 sm:items-end lg:col-span-1">
          <button type="submit" className={`${primaryButtonClass} flex-1 lg:flex-none`}>
            Filter
          </button>
          <Link to={`${action}${leadFilterQuery({ view: filters.view, sort: filters.sort })}`} className={`${secondaryButtonClass} flex-1 lg:flex-none`}>
            Clear
          </Link>
        </div>
      </div>
    </Form>
  );
}

/** One of the inbox's filters or its order: a labelled select whose first option (`any`) leaves it at its default. */
function FilterChoice({
  name,
  label,
  any,
  value,
  options,
  description,
  className,
}: {
  name: string;
  label: string;
  any: string;
  value: string | null | undefined;
  options: [value: string, label: string][];
  description?: string;
  className?: string;
}) {
  const id = `lead-${name}`;
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ""} aria-describedby={description ? `${id}-description` : undefined} className={`${inputClass} pr-8`}>
        <option value="">{any}</option>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
      {description ? (
        <span id={`${id}-description`} className="sr-only">
          {description}
        </span>
      ) : null}
    </div>
  );
}

/**
 * Where a person added from the inbox was met: the project's codes by their names, the default booth code first
 * (decision 60), then the plain address.
 */
function captureCodes(events: LeadInbox["events"]): CaptureCode[] {
  const codes = events.flatMap((event) => {
    // `qr:{id}`: a code (decision 54's sources); the plain link and 'not attributed' are not places to meet.
    return event.source.startsWith("qr:") ? [{ id: event.source.slice(3), name: event.name }] : [];
  });
  const first = defaultBoothCode(codes.map((code) => ({ id: code.id, label: code.name })));
  return [
    ...codes.filter((code) => code.id === first),
    ...codes.filter((code) => code.id !== first),
    { id: PLAIN_PITCH_CODE, name: PLAIN_PITCH_LABEL },
  ];
}

/** What the header counts, each part saying what it is: "80 people asked, followed or signaled · 15 met in person". */
function inboxCountsLine(acted: number, metInPerson: number): string {
  const people = (count: number) => plural(count, "person", "people");
  const parts = [`${people(acted)} asked, followed or signaled`];
  if (metInPerson) parts.push(`${metInPerson.toLocaleString("en-US")} met in person`);
  return parts.join(" · ");
}
