import { ArrowLeft, ExternalLink } from "lucide-react";
import { Link } from "react-router";
import { StatusBadge } from "~/components/ui/status-badge";
import { ProjectSectionTop } from "../project-section-nav";
import type { ProjectFormProject } from "./form-state";

/** The project form's top: the section tabs (edit) or a way back (create), the title, and Preview Live once published. */
export function ProjectFormHeader({ isEdit, project }: { isEdit: boolean; project?: ProjectFormProject }) {
  const savedPublished = isEdit && project?.status === "published";
  return (
    <>
      {isEdit && project ? (
        <ProjectSectionTop projectId={project.id} current="details" />
      ) : (
        <Link to="/my-projects" className="-ml-1 inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-sm font-medium text-slate-600 hover:text-slate-900">
          <ArrowLeft aria-hidden className="size-4" /> Back to Projects
        </Link>
      )}

      <div className={`${isEdit ? "" : "mt-3 "}flex flex-wrap items-end justify-between gap-x-4 gap-y-3`}>
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl">{isEdit ? "Edit Project" : "Create Project"}</h1>
          {isEdit && project ? (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
              <span className="truncate font-medium text-slate-800">{project.title}</span>
              <StatusBadge status={project.status} look="plain" />
            </p>
          ) : (
            <p className="mt-1 text-sm text-slate-600">Set up your pitch page. You can change everything later.</p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
        {savedPublished && project ? (
          <a
            href={`/pitch/${project.slug}`}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
          >
            <ExternalLink aria-hidden className="size-4" />
            Preview Live
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        ) : null}
        </div>
      </div>
    </>
  );
}
