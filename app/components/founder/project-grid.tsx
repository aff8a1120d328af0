import { BarChart3, ExternalLink, FolderPlus, Inbox, Pencil, Plus } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useNavigation } from "react-router";
import type { ProjectCard } from "~/modules/projects/founder-projects.server";
import { ROLE_LABELS, roleAllows } from "~/modules/access/roles";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { iconButtonClass } from "~/components/ui/icon-buttons";
import { cardClass } from "~/components/ui/card";
import { PageHeader } from "~/components/ui/page-header";
import { StatusBadge } from "~/components/ui/status-badge";
import { gridClass, ProjectGridSkeleton } from "./project-grid-skeleton";


/** My Projects: the owner's projects as cards, with counts and the three ways onward. */
export function ProjectGrid({ projects, newLeads = {}, after }: { projects: ProjectCard[]; newLeads?: Record<string, number>; after?: ReactNode }) {
  const navigation = useNavigation();
  // Coming back to this page (the menu's My Projects, a revalidation): skeletons until the new list arrives.
  const loading = navigation.state === "loading" && navigation.location.pathname === "/my-projects";
  return (
    <main className="mx-auto max-w-6xl px-4 pt-8 pb-16 sm:pt-10">
      <PageHeader
        title="My Projects"
        subtitle={projects.length ? "Your pitch pages, their counts and their analytics." : undefined}
        actions={
          // Without a project, the empty state's Create Project is the one first step; this stays, quieter.
          <Link to="/project/create" className={projects.length ? primaryButtonClass : secondaryButtonClass}>
            <Plus aria-hidden className="size-4" />
            New Project
          </Link>
        }
      />
      {loading ? (
        <ProjectGridSkeleton count={Math.min(Math.max(projects.length, 3), 6)} />
      ) : projects.length === 0 ? (
        <FirstProject />
      ) : (
        <ul aria-label="Projects" className={gridClass}>
          {projects.map((project) => (
            <ProjectCardItem key={project.id} project={project} newLeads={newLeads[project.id] ?? 0} />
          ))}
        </ul>
      )}
      {after}
    </main>
  );
}

const FIRST_STEPS = [
  { title: "Create your project", text: "A title and a one-liner are enough to start; your pitch page gets its own link." },
  { title: "Print a QR code per event", text: "Each code tells you which event a scan came from." },
  { title: "Watch the leads arrive", text: "Intros, followers and signals land in Leads and Analytics as they happen." },
];

/** My Projects for a founder without a project: the spec's empty state, and the first step made obvious. */
function FirstProject() {
  return (
    <section
      aria-labelledby="first-project-title"
      className="mx-auto flex max-w-xl flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-5 py-10 text-center sm:px-10 sm:py-12"
    >
      <span aria-hidden className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
        <FolderPlus className="size-6" />
      </span>
      <h2 id="first-project-title" className="mt-4 text-lg font-semibold text-slate-900">
        No projects yet
      </h2>
      <p className="mt-1 max-w-sm text-sm text-slate-600">Create your first project to start accepting intros and signals</p>
      <Link to="/project/create" className={`${primaryButtonClass} mt-6 w-full px-6 py-3 text-base sm:w-auto`}>
        <Plus aria-hidden className="size-5" />
        Create Project
      </Link>
      <ol aria-label="How it works" className="mt-8 w-full space-y-4 border-t border-slate-200 pt-6 text-left">
        {FIRST_STEPS.map((step, index) => (
          <li key={step.title} className="flex gap-3">
            <span aria-hidden className="flex size-7 shrink-0 items-center justify-center rounded-full bg-slate-100 text-sm font-semibold text-slate-700">
              {index + 1}
            </span>
            <div className="min-w-0">
              <p className="text-sm font-semibold text-slate-900">{step.title}</p>
              <p className="text-sm text-slate-600">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function ProjectCardItem({ project, newLeads }: { project: ProjectCard; newLeads: number }) {
  const titleId = `project-${project.id}-title`;
  const counts = [
    { label: "Signals", value: project.signals },
    { label: "Intros", value: project.intros },
    { label: "Subscribers", value: project.subscribers },
  ];
  return (
    <li aria-labelledby={titleId} className={`${cardClass} flex min-w-0 flex-col p-5`}>
      <div className="flex items-start justify-between gap-3">
        <h2 id={titleId} className="min-w-0 text-lg leading-snug font-semibold tracking-tight break-words text-slate-950">
          {project.title}
        </h2>
        <StatusBadge status={project.status} />
      </div>
      {project.role !== "owner" ? <p className="mt-1 text-xs font-semibold text-slate-500">Your role: {ROLE_LABELS[project.role]}</p> : null}
      <p className="mt-1.5 line-clamp-2 text-sm leading-relaxed break-words text-slate-600">{project.one_liner}</p>
      {/* mt-auto: counts and buttons line up along the bottom of a row of cards of unequal height. */}
      <div className="mt-auto pt-4">
        <dl className="grid grid-cols-3 divide-x divide-slate-200 rounded-xl bg-slate-50 py-3 ring-1 ring-slate-200/70 ring-inset">
          {counts.map((count) => (
            <div key={count.label} className="flex min-w-0 flex-col-reverse items-center gap-0.5 px-1 text-center">
              <dt className="text-xs font-medium text-slate-500">{count.label}</dt>
              <dd className="text-xl font-bold tracking-tight text-slate-950 tabular-nums">{count.value.toLocaleString("en-US")}</dd>
            </div>
          ))}
        </dl>
        <Link
          to={`/project/${project.id}/leads`}
          className="mt-3 flex items-center gap-2 rounded-lg px-2 py-2 text-sm font-semibold text-slate-800 ring-1 ring-slate-200 ring-inset hover:bg-slate-50"
        >
          <Inbox aria-hidden className="size-4 text-brand-600" />
          Leads
          {newLeads ? (
            <span className="ml-auto rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">{newLeads.toLocaleString("en-US")} new</span>
          ) : (
            <span className="ml-auto text-xs font-medium text-slate-500">Nothing new</span>
          )}
        </Link>
        <div className="mt-3 flex gap-2">
          <Link to={`/project/${project.id}/analytics`} className={`${primaryButtonClass} flex-1 px-3`}>
            <BarChart3 aria-hidden className="size-4" />
            Analytics
          </Link>
          {roleAllows(project.role, "edit") ? (
            <Link to={`/project/${project.id}/edit`} className={`${secondaryButtonClass} flex-1 px-3`}>
              <Pencil aria-hidden className="size-4" />
              Edit
            </Link>
          ) : null}
          <a
            href={`/pitch/${encodeURIComponent(project.slug)}`}
            target="_blank"
            rel="noopener noreferrer"
            aria-label="Open pitch page"
            title={`Open /pitch/${project.slug} in a new tab`}
            className={iconButtonClass}
          >
            <ExternalLink aria-hidden className="size-4" />
          </a>
        </div>
      </div>
    </li>
  );
}
