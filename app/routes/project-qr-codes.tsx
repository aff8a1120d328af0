import { operatorBannerFor } from "~/modules/operator/operator-banner.server";
import { ProjectSectionPage } from "~/components/founder/project-section-nav";
import { SetupWarningBanner } from "~/components/founder/setup-warning-banner";
import { BoothLinksCard } from "~/components/founder/booth-links-card";
import { QrCodesCard } from "~/components/founder/qr-codes-card";
import { QrCodesAwayCard } from "~/components/founder/qr-codes-away";
import { listActiveBoothLinks } from "~/modules/booth/booth-links.server";
import { requireSessionUser } from "~/modules/auth/session.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { loadQrCodesSection } from "~/modules/qr/qr-codes.server";
import { listCodesAway } from "~/modules/qr/qr-code-moves.server";
import { roleAllows } from "~/modules/access/roles";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-qr-codes";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `QR codes: ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` },
];

/** The project's QR codes section; creating and deleting codes post to the edit route's action. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, config, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const section = await orRedirectToMyProjects(flashCookie, () => loadQrCodesSection(database.db, user.id, params.id, config.publicUrl));
  const boothLinks = roleAllows(section.project.role, "edit") ? await listActiveBoothLinks(database.db, user.id, params.id) : [];
  const codesAway = await listCodesAway(database.db, user.id, params.id);
  return {
    projectRole: section.project.role,
    boothLinks,
    project: { id: section.project.id, title: section.project.title, slug: section.project.slug },
    pitchUrl: section.pitchUrl,
    pitchQrSvg: section.pitchQrSvg,
    setupBanner: operatorBannerFor(context.services, request, url, section.project.role, ["qr-address", "mail"]),
    qrCodes: section.codes.map((code) => ({
      id: code.id,
      label: code.label,
      eventTag: code.event_tag,
      totalScans: code.here.scans,
      uniqueScans: code.here.viewers,
      scansElsewhere: code.scansElsewhere,
      createdAt: code.created_at,
      url: code.url,
      svg: code.svg,
      eventEndsOn: code.event_ends_on,
      archived: code.archived_at !== null,
    })),
    repointTargets: section.repointTargets,
    codesAway,
    today: section.today,
  };
}

export default function ProjectQrCodes({ loaderData }: Route.ComponentProps) {
  const { project } = loaderData;
  return (
    <ProjectSectionPage projectId={project.id} current="qr-codes" title={`QR codes: ${project.title}`}>
      <SetupWarningBanner banner={loaderData.setupBanner} />
      <QrCodesCard
        projectId={project.id}
        slug={project.slug}
        pitchUrl={loaderData.pitchUrl}
        pitchQrSvg={loaderData.pitchQrSvg}
        qrCodes={loaderData.qrCodes}
        repointTargets={loaderData.repointTargets}
        today={loaderData.today}
      />
      <QrCodesAwayCard projectId={project.id} codes={loaderData.codesAway} />
      {roleAllows(loaderData.projectRole, "booth") ? (
        <BoothLinksCard projectId={project.id} links={loaderData.boothLinks} codes={loaderData.qrCodes} manageLinks={roleAllows(loaderData.projectRole, "edit")} />
      ) : null}
    </ProjectSectionPage>
  );
}
