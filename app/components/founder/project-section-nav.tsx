import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { roleAllows, type ProjectAction } from "~/modules/access/roles";
import { useProjectRole } from "./use-project-role";

export type ProjectSection = "details" | "deck" | "qr-codes" | "updates" | "leads" | "analytics" | "team";

/** Each section and what a role needs to open it (decision 61): a tab the role cannot use is not shown. */
const SECTIONS: { id: ProjectSection; label: string; path: string; needs: ProjectAction }[] = [
  { id: "details", label: "Details", path: "edit", needs: "edit" },
  { id: "deck", label: "Deck", path: "deck", needs: "view" },
  { id: "qr-codes", label: "QR codes", path: "qr-codes", needs: "view" },
  { id: "updates", label: "Updates", path: "updates", needs: "view" },
  { id: "leads", label: "Leads", path: "leads", needs: "view" },
  { id: "analytics", label: "Analytics", path: "analytics", needs: "view" },
  { id: "team", label: "Team", path: "team", needs: "view" },
];

export function projectSectionPath(projectId: string, section: ProjectSection): string {
  const path = SECTIONS.find((candidate) => candidate.id === section)!.path;
  return `/project/${encodeURIComponent(projectId)}/${path}`;
}

/**
 * The project workspace's sections, one tap apart and all in sight: on a phone the tabs wrap onto a
 * second line rather than scroll sideways out of view; from the sm breakpoint they are one underlined row.
 */
export function ProjectSectionNav({ projectId, current }: { projectId: string; current: ProjectSection }) {
  const role = useProjectRole();
  return (
    <nav aria-label="Project sections" className="mt-2 mb-4 print:hidden">
      <ul className="flex flex-wrap gap-1.5 sm:gap-1 sm:border-b sm:border-slate-200">
        {SECTIONS.filter((section) => roleAllows(role, section.needs)).map((section) => {
          const active = section.id === current;
          return (
            <li key={section.id}>
              <Link
                to={projectSectionPath(projectId, section.id)}
                aria-current={active ? "page" : undefined}
                className={`inline-flex h-10 items-center rounded-lg px-3 text-sm font-semibold whitespace-nowrap ring-1 transition-colors sm:-mb-px sm:h-11 sm:rounded-none sm:border-b-2 sm:ring-0 ${
                  active
                    ? "bg-brand-50 text-brand-700 ring-brand-200 sm:border-brand-600 sm:bg-transparent"
                    : "text-slate-600 ring-slate-200 hover:text-slate-900 sm:border-transparent sm:hover:border-slate-300"
                }`}
              >
                {section.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** 'Back to Projects' and the section tabs: the top of every project section. */
export function ProjectSectionTop({ projectId, current }: { projectId: string; current: ProjectSection }) {
  return (
    <>
      <Link
        to="/my-projects"
        className="-ml-1 inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-sm font-medium text-slate-600 hover:text-slate-900 print:hidden"
      >
        <ArrowLeft aria-hidden className="size-4" /> Back to Projects
      </Link>
      <ProjectSectionNav projectId={projectId} current={current} />
    </>
  );
}

/** A project section's page: the top, its heading (h1) with a line under it, then the section. */
export function ProjectSectionPage({
  projectId,
  current,
  title,
  subtitle,
  children,
}: {
  projectId: string;
  current: ProjectSection;
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="mx-auto max-w-3xl px-4 pb-10 pt-5 sm:pt-8">
      <ProjectSectionTop projectId={projectId} current={current} />
      <h1 className="text-2xl font-bold tracking-tight text-balance break-words text-slate-950 sm:text-3xl">{title}</h1>
      {subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
      <div className="mt-5 space-y-4 sm:space-y-5">{children}</div>
    </main>
  );
}
