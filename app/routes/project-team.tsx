import { redirect } from "react-router";
import { TeamView } from "~/components/founder/team-view";
import { requireSessionUser } from "~/modules/auth/session.server";
import { operatorBannerFor } from "~/modules/operator/operator-banner.server";
import { callIntent, handleFormAction, intentOf } from "~/modules/forms/form-action.server";
import { readFormData } from "~/modules/http/form-body.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import {
  leftoverSchema,
  memberRoleSchema,
  memberSchema,
  revokeInvitationSchema,
  teamInvitationSchema,
  type LeftoverInput,
  type MemberInput,
  type MemberRoleInput,
  type RevokeInvitationInput,
  type TeamInvitationInput,
} from "~/modules/team/team-forms";
import { issueInvitationLink } from "~/modules/team/team-links.server";
import { decideLeftover } from "~/modules/team/team-setups.server";
import { changeMemberRole, inviteToTeam, leaveProject, loadTeam, removeMember, revokeTeamInvitation, transferOwnership } from "~/modules/team/team.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-team";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Team: ${loaderData?.team.project.title ?? "Project"} · ${PRODUCT_NAME}` }];

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const team = await orRedirectToMyProjects(flashCookie, () => loadTeam(database.db, user.id, params.id));
  return { team, projectRole: team.project.role, userId: user.id, setupBanner: operatorBannerFor(context.services, request, url, team.project.role, ["mail"]) };
}

export const TEAM_INTENTS = ["invite", "link", "revoke", "role", "remove", "transfer", "leave", "leftover"] as const;
export type TeamIntent = (typeof TEAM_INTENTS)[number];

/** POST: the team's changes (decision 61); each checks the role on the server, and a refusal changes nothing. */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, config, database, mailLinks, events } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  const deps = { db: database.db, events, logger: context.logger };
  return handleFormAction<TeamIntent>({
    form,
    logger: context.logger,
    intent: intentOf(form, TEAM_INTENTS),
    intents: {
      invite: {
        schema: teamInvitationSchema,
        failureMessage: "Failed to send the invitation",
        run: async (input: TeamInvitationInput) => {
          const invitation = await inviteToTeam(database.db, mailLinks, user.id, params.id, input);
          // Without SMTP the mail is only a file on the server: the founder is told to hand the link over themselves.
          const message = config.smtpUrl ? `Invitation sent to ${invitation.email}` : `Invitation to ${invitation.email} kept on this server: copy the link and send it yourself`;
          return { message, id: invitation.id };
        },
      },
      link: callIntent(revokeInvitationSchema, "Failed to make the invite link", (input: RevokeInvitationInput) => issueInvitationLink(database.db, mailLinks, user.id, params.id, input.invitationId), (input, link) => ({
        message: `Invite link for ${link.email} copied: send it by any messenger`,
        id: input.invitationId,
        joinUrl: link.joinUrl,
      })),
      revoke: callIntent(revokeInvitationSchema, "Failed to withdraw the invitation", (input: RevokeInvitationInput) => revokeTeamInvitation(database.db, user.id, params.id, input.invitationId), (input) => ({ message: "Invitation withdrawn", id: input.invitationId })),
      role: callIntent(memberRoleSchema, "Failed to change the role", (input: MemberRoleInput) => changeMemberRole(database.db, user.id, params.id, input), (input) => ({ message: "Role changed", id: input.userId })),
      remove: callIntent(memberSchema, "Failed to remove the member", (input: MemberInput) => removeMember(deps, user.id, params.id, input.userId), (input) => ({ message: "Removed from the team", id: input.userId })),
      transfer: callIntent(memberSchema, "Failed to hand over ownership", (input: MemberInput) => transferOwnership(database.db, user.id, params.id, input.userId), (input) => ({ message: "Ownership handed over: you are a co-founder now", id: input.userId })),
      leftover: callIntent(leftoverSchema, "Failed to keep or delete it", (input: LeftoverInput) => decideLeftover(database.db, user.id, params.id, input), (input) => ({
        message: input.decision === "keep" ? "Kept: it works again, and is yours now" : "Deleted",
        id: `${input.kind}:${input.itemId}`,
      })),
      leave: {
        failureMessage: "Failed to leave the project",
        run: async () => {
          await leaveProject(deps, user.id, params.id);
          return redirect("/my-projects");
        },
      },
    },
  });
}

export default function ProjectTeam({ loaderData }: Route.ComponentProps) {
  return <TeamView team={loaderData.team} userId={loaderData.userId} setupBanner={loaderData.setupBanner} />;
}
