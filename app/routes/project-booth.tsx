import { data } from "react-router";
import { BoothEnded, BoothScreenView } from "~/components/booth/booth-screen";
import { requireSessionUser } from "~/modules/auth/session.server";
import { boothCookie, clearedBoothCookie, resolveBoothAccess } from "~/modules/booth/booth-access.server";
import { BOOTH_NOT_FOUND, loadBoothScreen } from "~/modules/booth/booth.server";
import { orErrorPage } from "~/modules/http/domain-errors.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-booth";

/** The booth screen is the whole screen: no site header (root's Layout reads this). */
export const handle = { fullScreen: true };

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: loaderData ? `Booth: ${loaderData.project.title} · ${PRODUCT_NAME}` : "Page not found" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

/**
 * The booth screen: for the owner signed in, or a staff device through a booth link (`?key=` on first
 * open, then the cookie it sets). A token that opens nothing answers 404 and reveals nothing of the project.
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, config, flashCookie, pageDoor } = context.services;
  const secure = config.publicUrl.startsWith("https://");
  const access = await resolveBoothAccess({ db: database.db, auth }, request, params.id, url.searchParams.get("key"));
  if (access.kind === "none") {
    // No token: as every owner page, sign-in first, then "Project not found or access denied" for anyone but the owner.
    const user = await requireSessionUser(auth, request, url);
    await orRedirectToMyProjects(flashCookie, () => requireProjectRole(database.db, user.id, params.id, "booth"));
  }
  if (access.kind !== "viewer") {
    const headers = { "Set-Cookie": clearedBoothCookie(params.id, secure) };
    throw data({ boothEnded: access.kind === "ended" }, { status: 404, headers });
  }
  const screen = await orErrorPage(() => loadBoothScreen(database.db, access.viewer, params.id, config.publicUrl), {
    body: () => ({ boothEnded: false, message: BOOTH_NOT_FOUND }),
    status: 404,
  });
  const headers = new Headers();
  if (access.newToken) {
    headers.append("Set-Cookie", boothCookie(params.id, access.newToken.token, access.newToken.expiresAt, secure));
    // A staff phone that opened the booth link is the team's: its own visits to the pitch are not visitors' (decision 52).
    headers.append("Set-Cookie", pageDoor.teamDeviceCookie(access.newToken.ownerId, request.headers.get("cookie")));
  }
  // Only a signed-in member may add people: a booth link's device has nobody to credit them to (decision 62).
  const memberId = access.viewer.kind === "member" ? access.viewer.userId : null;
  return data({ ...screen, owner: access.viewer.kind === "member", memberId }, { headers });
}

export default function ProjectBooth({ loaderData }: Route.ComponentProps) {
  return (
    <BoothScreenView
      project={loaderData.project}
      codes={loaderData.codes}
      owner={loaderData.owner}
      timeZone={loaderData.timeZone}
      shownCode={loaderData.shownCode}
      followsLink={loaderData.followsLink}
      memberId={loaderData.memberId}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const ended = typeof error === "object" && error !== null && "data" in error && (error.data as { boothEnded?: boolean } | null)?.boothEnded === true;
  return <BoothEnded ended={ended} />;
}
