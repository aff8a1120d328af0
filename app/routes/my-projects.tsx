import { InviteFounderCard } from "~/components/founder/invite-founder-card";
import { ProjectGrid } from "~/components/founder/project-grid";
import { invitationFormSchema } from "~/modules/auth/auth-form";
import { createInvitationLink } from "~/modules/auth/invitations.server";
import { requireSessionUser } from "~/modules/auth/session.server";
import { handleFormAction } from "~/modules/forms/form-action.server";
import { readFormData } from "~/modules/http/form-body.server";
import { countNewLeads } from "~/modules/leads/leads.server";
import { listOwnedProjects } from "~/modules/projects/founder-projects.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/my-projects";

export const meta: Route.MetaFunction = () => [{ title: `My Projects · ${PRODUCT_NAME}` }];

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const user = await requireSessionUser(context.services.auth, request, url);
  const { db } = context.services.database;
  const [projects, newLeads] = await Promise.all([listOwnedProjects(db, user.id), countNewLeads(db, user.id)]);
  return { projects, newLeads, invitations: context.services.config.signup === "invite" };
}

/** 'Invite a founder' (SIGNUP=invite): a link for one account, shown once. */
export async function action({ request, url, context }: Route.ActionArgs) {
  const { auth, config, database } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  return handleFormAction<"invite", { invitationUrl?: string }>({
    form,
    logger: context.logger,
    intent: "invite",
    intents: { invite: { schema: invitationFormSchema, run: () => createInvitationLink(database.db, config, user.id) } },
  });
}

export default function MyProjects({ loaderData }: Route.ComponentProps) {
  return <ProjectGrid projects={loaderData.projects} newLeads={loaderData.newLeads} after={loaderData.invitations ? <InviteFounderCard /> : null} />;
}
