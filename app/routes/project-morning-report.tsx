import { ArrowLeft, Paperclip } from "lucide-react";
import { Link } from "react-router";
import { ProjectSectionPage } from "~/components/founder/project-section-nav";
import { requireSessionUser } from "~/modules/auth/session.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { buildYesterdayReport } from "~/modules/reports/morning-report-now.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-morning-report";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Yesterday's report: ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` }];

/** 'Preview yesterday's report' on Lead settings: the morning-after mail about yesterday, as it would reach this member. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie, mailLinks } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const built = await orRedirectToMyProjects(flashCookie, () => buildYesterdayReport(database.db, mailLinks, user, params.id));
  return { project: built.project, projectRole: built.role, period: built.period, attachment: built.attachment, to: built.mail.to, subject: built.mail.subject, html: built.mail.html ?? "" };
}

export default function ProjectMorningReport({ loaderData }: Route.ComponentProps) {
  const { project } = loaderData;
  return (
    <ProjectSectionPage projectId={project.id} current="leads" title="Yesterday's report" subtitle={`The morning-after e-mail about ${loaderData.period}, as it reaches you`}>
      <Link to={`/project/${project.id}/leads/settings#morning-report-title`} className="inline-flex items-center gap-1.5 text-sm font-semibold text-brand-700 hover:text-brand-800">
        <ArrowLeft aria-hidden className="size-4" />
        Lead settings
      </Link>
      <section aria-label="E-mail" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <dl className="space-y-1 text-sm text-slate-900">
          <div>
            <dt className="inline font-semibold">To:</dt> <dd className="inline break-all">{loaderData.to}</dd>
          </div>
          <div>
            <dt className="inline font-semibold">Subject:</dt> <dd className="inline" data-report-subject>{loaderData.subject}</dd>
          </div>
          {loaderData.attachment ? (
            <div className="flex items-center gap-1">
              <dt className="inline font-semibold">
                <Paperclip aria-label="Attached" className="size-4" />
              </dt>
              <dd className="inline break-all">{loaderData.attachment}</dd>
            </div>
          ) : null}
        </dl>
        <iframe title={`E-mail preview: ${loaderData.subject}`} sandbox="" srcDoc={loaderData.html} className="mt-3 h-[70dvh] w-full rounded-md border border-slate-200 bg-white" />
      </section>
    </ProjectSectionPage>
  );
}
