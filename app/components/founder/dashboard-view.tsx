import { ChevronRight, FolderKanban, FolderPlus, Inbox, Plus } from "lucide-react";
import { Link } from "react-router";
import type { ActivityItem } from "~/modules/activity/activity.server";
import type { ProjectCard } from "~/modules/projects/founder-projects.server";
import { ROLE_LABELS, roleAllows } from "~/modules/access/roles";
import type { MySignal } from "~/modules/signals/my-signals.server";
import { primaryButtonClass } from "~/components/ui/buttons";
import { cardClass, SectionCard } from "~/components/ui/card";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { StatusBadge } from "~/components/ui/status-badge";
import { useClock } from "~/components/ui/use-clock";
import { SetupWarningBanner } from "./setup-warning-banner";
import type { OperatorBanner } from "~/modules/operator/operator-banner";
import { ActivityFeed } from "./insights/activity-feed";
import { SignalList } from "./insights/signal-list";

export type DashboardProject = Pick<ProjectCard, "id" | "title" | "slug" | "status" | "role"> & { newLeads?: number };

export type DashboardViewProps = {
  isFounder: boolean;
  projects: DashboardProject[];
  activity: ActivityItem[];
  mySignals: MySignal[];
  now: string;
  /** Set when the address QR codes encode will not open on visitors' phones. */
  setupBanner?: OperatorBanner | null;
};

const newProjectLink = (
  <Link to="/project/create" className={primaryButtonClass}>
    <Plus aria-hidden className="size-4" />
    New Project
  </Link>
);

/** Dashboard: the founder's projects, live activity and own signals; for others, their signals. */
export function DashboardView({ isFounder, projects, activity, mySignals, now, setupBanner = null }: DashboardViewProps) {
  const clock = useClock(now);

  if (!isFounder) {
    return (
      <main className="mx-auto max-w-6xl px-4 pt-8 pb-16 sm:pt-10">
        <PageHeader title="Dashboard" subtitle="Pitches you've engaged with" />
        <SignalsSection id="engaged-title" title="Pitches I've Engaged With" signals={mySignals} />
        <aside
          aria-labelledby="first-project-title"
          className={`${cardClass} mt-10 flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6`}
        >
          <div className="flex items-start gap-3">
            <span aria-hidden className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-600">
              <FolderPlus className="size-5" />
            </span>
            <div>
              <h2 id="first-project-title" className="font-semibold text-slate-950">
                You haven't created any projects yet
              </h2>
              <p className="mt-0.5 text-sm text-slate-600">Publish a pitch page with its own QR codes and collect intros, subscribers and signals.</p>
            </div>
          </div>
          <Link to="/project/create" className={`${primaryButtonClass} shrink-0`}>
            <Plus aria-hidden className="size-4" />
            Create Your First Project
          </Link>
        </aside>
      </main>
    );
  }

  return (
    <main className="mx-auto max-w-6xl px-4 pt-8 pb-16 sm:pt-10">
      <PageHeader title="Founder Dashboard" subtitle="Your projects and what is happening on them, live" actions={newProjectLink} />
      <SetupWarningBanner banner={setupBanner} className="mb-4" />
      <div className="grid gap-4 lg:grid-cols-5">
        <ProjectsCard projects={projects} className="lg:col-span-2" />
        <ActivityFeed initial={activity} now={clock} className="lg:col-span-3" />
      </div>
      <div className="mt-10">
        <SignalsSection id="my-signals-title" title="Your Interest Signals" description="Signals you've made on other projects" signals={mySignals} />
      </div>
    </main>
  );
}

function ProjectsCard({ projects, className }: { projects: DashboardProject[]; className?: string }) {
  return (
    <SectionCard
      id="projects-title"
      title="My Projects"
      icon={FolderKanban}
      className={className}
      actions={
        projects.length ? (
          <Link to="/my-projects" className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50 hover:text-brand-600">
            View all
          </Link>
        ) : undefined
      }
    >
      {projects.length === 0 ? (
        <EmptyState
          compact
          icon={FolderPlus}
          title="You haven't created any projects yet"
          action={
            <Link to="/project/create" className={primaryButtonClass}>
              <Plus aria-hidden className="size-4" />
              Create Your First Project
            </Link>
          }
        />
      ) : (
        <ul aria-labelledby="projects-title" className="-mx-2 space-y-1">
          {projects.map((project) => (
            <li key={project.id} className="flex items-center gap-1">
              <Link to={`/project/${project.id}/${roleAllows(project.role, "edit") ? "edit" : "analytics"}`} className="group flex min-w-0 flex-1 items-center gap-3 rounded-xl px-2 py-2.5 hover:bg-slate-50">
                <span className="min-w-0 flex-1">
                  <span title={project.title} className="block truncate font-medium text-slate-900 group-hover:text-brand-700">
                    {project.title}
                  </span>
                  <span className="block truncate font-mono text-xs text-slate-500">
                    /pitch/{project.slug}
                    {project.role !== "owner" ? <span className="font-sans font-semibold"> · {ROLE_LABELS[project.role]}</span> : null}
                  </span>
                </span>
                <StatusBadge status={project.status} />
                <ChevronRight aria-hidden className="size-4 shrink-0 text-slate-500 group-hover:text-slate-700" />
              </Link>
              <Link
                to={`/project/${project.id}/leads`}
                aria-label={`Leads for ${project.title}${project.newLeads ? `: ${project.newLeads} new` : ""}`}
                className="inline-flex shrink-0 items-center gap-1.5 rounded-lg px-2 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-50 hover:text-brand-700"
              >
                <Inbox aria-hidden className="size-4" />
                {project.newLeads ? (
                  <span className="rounded-full bg-brand-600 px-1.5 py-0.5 text-xs leading-none text-white">
                    {project.newLeads}
                    {/* The link's label says "N new" to everyone; on a phone the pill keeps the title room. */}
                    <span className="hidden sm:inline"> new</span>
                  </span>
                ) : (
                  <span className="sr-only sm:not-sr-only">Leads</span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}

function SignalsSection({ id, title, description, signals }: { id: string; title: string; description?: string; signals: MySignal[] }) {
  return (
    <section aria-labelledby={id}>
      <div className="mb-4">
        <h2 id={id} className="text-lg font-bold tracking-tight text-slate-950 sm:text-xl">
          {title}
        </h2>
        {description ? <p className="mt-0.5 text-sm text-slate-600">{description}</p> : null}
      </div>
      <SignalList signals={signals} labelledBy={id} />
    </section>
  );
}
