import { operatorBannerFor } from "~/modules/operator/operator-banner.server";
import { SetupWarningBanner } from "~/components/founder/setup-warning-banner";
import { ProjectSectionPage } from "~/components/founder/project-section-nav";
import { ProjectUpdatesCard } from "~/components/founder/project-updates-card";
import { requireSessionUser } from "~/modules/auth/session.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { loadProjectUpdatesSection } from "~/modules/updates/project-updates.server";
import { countFollowers, previewUpdateMails, SENT_NOW_SLOT_PREFIX } from "~/modules/updates/send-update-now.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-updates";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Updates: ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` },
];

/** The project's updates section; posting an update goes to the edit route's action. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const { project, updates } = await orRedirectToMyProjects(flashCookie, () => loadProjectUpdatesSection(database.db, user.id, params.id));
  return {
    projectRole: project.role,
    project: { id: project.id, title: project.title },
    serverNow: new Date().toISOString(),
    setupBanner: operatorBannerFor(context.services, request, url, project.role, ["mail"]),
    updates: updates.map((update) => ({
      id: update.id,
      body: update.body,
      createdAt: update.created_at,
      mailed: update.digest_slot === null ? null : update.digest_slot.startsWith(SENT_NOW_SLOT_PREFIX) ? ("now" as const) : ("digest" as const),
    })),
    // What followers would get for each update not yet mailed, built by the digest's own function (decision 65).
    previews: previewUpdateMails(context.services.mailLinks, project, updates, context.services.config.digest.timeZone),
    followers: await countFollowers(database.db, project.id),
  };
}

export default function ProjectUpdates({ loaderData }: Route.ComponentProps) {
  const { project } = loaderData;
  return (
    <ProjectSectionPage projectId={project.id} current="updates" title={`Updates: ${project.title}`}>
      <SetupWarningBanner banner={loaderData.setupBanner} />
      <ProjectUpdatesCard
        projectId={project.id}
        updates={loaderData.updates}
        previews={loaderData.previews}
        followers={loaderData.followers}
        serverNow={loaderData.serverNow}
      />
    </ProjectSectionPage>
  );
}
