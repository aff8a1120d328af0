import { Users } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { secondaryButtonClass, primaryButtonClass } from "~/components/ui/buttons";
import { LinkActionForm, LinkFailure, LinkPageCard } from "~/components/ui/link-page";
import { authPathFor } from "~/modules/auth/return-to";
import { getSessionUser, requireSessionUser } from "~/modules/auth/session.server";
import { orErrorPage } from "~/modules/http/domain-errors.server";
import { serializeFlash } from "~/modules/flash/flash.server";
import { readFormData } from "~/modules/http/form-body.server";
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from "~/modules/access/roles";
import { INVITATION_PROBLEMS } from "~/modules/team/team-forms";
import { teamProjectOfLink } from "~/modules/team/team-links.server";
import { acceptTeamInvitation, readTeamInvitation } from "~/modules/team/team.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/team.join";

export const meta: Route.MetaFunction = () => [{ title: `Join a team · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

const REFUSED_TITLE = "This invitation does not work";

/**
 * A team invitation's link (decision 61). Opening it changes nothing (mail scanners open links): it says which
 * project and role, and asks to sign in or sign up with the invited address (filled in there); the button joins.
 * Someone already on the team who opens a link that no longer works (the one they joined with) lands on the project.
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie } = context.services;
  const token = url.searchParams.get("token") ?? "";
  const [invitation, user] = await Promise.all([readTeamInvitation(database.db, token), getSessionUser(auth, request)]);
  const here = `${url.pathname}${url.search}`;
  if (invitation.kind === "refused") {
    const projectId = user ? await teamProjectOfLink(database.db, user.id, token) : null;
    if (projectId) {
      const flash = await serializeFlash(flashCookie, { toast: { type: "success", message: "You are on this team already" } });
      throw redirect(`/project/${encodeURIComponent(projectId)}/leads`, { headers: { "Set-Cookie": flash } });
    }
    return data({ token, invitation: null, failure: { title: REFUSED_TITLE, message: INVITATION_PROBLEMS[invitation.problem] }, signedInAs: user?.email ?? null, authPath: authPathFor(here) }, { status: 400 });
  }
  return { token, invitation, failure: null, signedInAs: user?.email ?? null, authPath: authPathFor(here) };
}

/** The button: joins the team for the signed-in user, when the invitation is theirs and still open. */
export async function action({ request, url, context }: Route.ActionArgs) {
  const { auth, database, flashCookie, pageDoor } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  return orErrorPage(
    async () => {
      const { projectId, ownerId, keptRole } = await acceptTeamInvitation(database.db, user, String(form.get("token") ?? ""));
      const message = keptRole ? `You are already on the team as ${ROLE_LABELS[keptRole]}: your role stays as it is` : "You joined the team";
      const headers = new Headers();
      headers.append("Set-Cookie", await serializeFlash(flashCookie, { toast: { type: "success", message } }));
      // This device is now the team's: its own visits to the pitch are not visitors' (decision 52).
      headers.append("Set-Cookie", pageDoor.teamDeviceCookie(ownerId, request.headers.get("cookie")));
      return redirect(`/project/${encodeURIComponent(projectId)}/leads`, { headers });
    },
    { as: "page", page: (error) => ({ failure: { title: REFUSED_TITLE, message: error.message } }) },
  );
}

export default function JoinTeam({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const failure = actionData?.failure ?? loaderData.failure;
  const { invitation, signedInAs } = loaderData;
  return (
    <LinkPageCard icon={Users}>
      {failure || !invitation ? (
        <>
          <LinkFailure failure={failure ?? { title: REFUSED_TITLE, message: INVITATION_PROBLEMS.unknown }} />
          <Link to="/my-projects" className="mt-6 inline-block font-semibold text-brand-700 underline">
            Open My Projects
          </Link>
        </>
      ) : (
        <>
          <h1 className="mt-4 text-2xl font-bold text-balance">Join {invitation.projectTitle}</h1>
          <p className="mt-2 text-slate-600">
            You are invited as <strong className="font-semibold text-slate-900">{ROLE_LABELS[invitation.role]}</strong>: {ROLE_DESCRIPTIONS[invitation.role].toLowerCase()}.
          </p>
          {signedInAs === null ? (
            <>
              <p className="mt-3 text-slate-600">
                Sign in or create an account with <strong className="font-semibold break-all text-slate-900">{invitation.email}</strong> to join.
              </p>
              <div className="mt-6 grid gap-2">
                <a href={`${loaderData.authPath}&mode=signup&invitation=${encodeURIComponent(loaderData.token)}`} className={`${primaryButtonClass} w-full`}>
                  Create an account
                </a>
                <a href={`${loaderData.authPath}&invitation=${encodeURIComponent(loaderData.token)}`} className={`${secondaryButtonClass} w-full`}>
                  Sign in
                </a>
              </div>
            </>
          ) : signedInAs.toLowerCase() !== invitation.email ? (
            <>
              <p role="alert" className="mt-3 text-slate-600">
                {INVITATION_PROBLEMS.otherAddress} You are signed in as <strong className="font-semibold break-all text-slate-900">{signedInAs}</strong>.
              </p>
              <Form method="post" action="/auth/sign-out" className="mt-6">
                <button type="submit" className={`${secondaryButtonClass} w-full`}>
                  Sign out
                </button>
              </Form>
            </>
          ) : (
            <LinkActionForm token={loaderData.token} busy={busy} label="Join the team" busyLabel="Joining..." />
          )}
        </>
      )}
    </LinkPageCard>
  );
}
