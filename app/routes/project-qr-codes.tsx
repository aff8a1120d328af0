import { mailWarningForFounders } from "~/modules/mail/mail-warning.server";
import { ProjectSectionPage } from "~/components/founder/project-section-nav";
import { SetupWarningBanner } from "~/components/founder/setup-warning-banner";
import { BoothLinksCard } from "~/components/founder/booth-links-card";
import { QrCodesCard } from "~/components/founder/qr-codes-card";
import { listActiveBoothLinks } from "~/modules/booth/booth-links.server";
import { requireSessionUser } from "~/modules/auth/session.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { publicUrlWarning } from "~/modules/qr/public-url";
import { loadQrCodesSection } from "~/modules/qr/qr-codes.server";
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
  const warning = publicUrlWarning(config.publicUrl);
  const boothLinks = roleAllows(section.project.role, "edit") ? await listActiveBoothLinks(database.db, user.id, params.id) : [];
  return {
    projectRole: section.project.role,
    boothLinks,
    project: { id: section.project.id, title: section.project.title, slug: section.project.slug },
    pitchUrl: section.pitchUrl,
    pitchQrSvg: section.pitchQrSvg,
    qrAddressWarning: warning && { title: warning.title, message: warning.message },
    mailWarning: mailWarningForFounders(context.services),
    qrCodes: section.codes.map((code) => ({
      id: code.id,
      label: code.label,
      eventTag: code.event_tag,
      totalScans: Number(code.total_scans),
      uniqueScans: Number(code.unique_scans),
      createdAt: code.created_at,
      url: code.url,
      svg: code.svg,
      eventEndsOn: code.event_ends_on,
      archived: code.archived_at !== null,
    })),
    repointTargets: section.repointTargets,
    today: section.today,
  };
}

export default function ProjectQrCodes({ loaderData }: Route.ComponentProps) {
  const { project } = loaderData;
  return (
    <ProjectSectionPage projectId={project.id} current="qr-codes" title={`QR codes: ${project.title}`}>
      <SetupWarningBanner warning={loaderData.qrAddressWarning} />
      <SetupWarningBanner warning={loaderData.mailWarning} />
      <QrCodesCard
        projectId={project.id}
        slug={project.slug}
        pitchUrl={loaderData.pitchUrl}
        pitchQrSvg={loaderData.pitchQrSvg}
        qrCodes={loaderData.qrCodes}
        repointTargets={loaderData.repointTargets}
        today={loaderData.today}
      />
      {roleAllows(loaderData.projectRole, "booth") ? (
        <BoothLinksCard projectId={project.id} links={loaderData.boothLinks} codes={loaderData.qrCodes} manageLinks={roleAllows(loaderData.projectRole, "edit")} />
      ) : null}
    </ProjectSectionPage>
  );
}
