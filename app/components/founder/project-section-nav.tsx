import { ArrowLeft } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { Link } from "react-router";
import { roleAllows, type ProjectAction } from "~/modules/access/roles";
import { useProjectRole } from "./use-project-role";

export type ProjectSection = "details" | "qr-codes" | "updates" | "leads" | "analytics" | "team";

/** Each section and what a role needs to open it (decision 61): a tab the role cannot use is not shown. */
const SECTIONS: { id: ProjectSection; label: string; path: string; needs: ProjectAction }[] = [
  { id: "details", label: "Details", path: "edit", needs: "edit" },
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
 * The project workspace's sections (issue 13), one tap apart: a compact tab bar at the top of every section that
 * scrolls sideways on a narrow phone, so each section's heading stays within the first screen.
 */
export function ProjectSectionNav({ projectId, current }: { projectId: string; current: ProjectSection }) {
  const role = useProjectRole();
  // On a phone the tabs scroll sideways: the current one (Team, the last) is brought into view.
  const currentTab = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const tab = currentTab.current;
    const strip = tab?.closest("nav");
    if (!tab || !strip) return;
    // Sideways only: the page's own scroll (a lead an alert linked to) is left alone.
    const shown = strip.getBoundingClientRect();
    const place = tab.getBoundingClientRect();
    if (place.right > shown.right) strip.scrollLeft += place.right - shown.right + 16;
    else if (place.left < shown.left) strip.scrollLeft -= shown.left - place.left + 16;
  }, [current]);
  return (
    <nav aria-label="Project sections" className="-mx-4 mt-2 mb-4 overflow-x-auto px-4 [scrollbar-width:none] print:hidden">
      <ul className="flex min-w-max border-b border-slate-200 sm:gap-1">
        {SECTIONS.filter((section) => roleAllows(role, section.needs)).map((section) => {
          const active = section.id === current;
          return (
            <li key={section.id}>
              <Link
                to={projectSectionPath(projectId, section.id)}
                ref={active ? currentTab : undefined}
                aria-current={active ? "page" : undefined}
                className={`-mb-px inline-flex h-11 items-center border-b-2 px-2 text-[13px] font-semibold sm:px-3 sm:text-sm whitespace-nowrap transition-colors ${
                  active ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
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
