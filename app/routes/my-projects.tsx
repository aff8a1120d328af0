import { ProjectGrid } from "~/components/founder/project-grid";
import { requireSessionUser } from "~/modules/auth/session.server";
import { countNewLeads } from "~/modules/leads/leads.server";
import { listOwnedProjects } from "~/modules/projects/founder-projects.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/my-projects";

export const meta: Route.MetaFunction = () => [{ title: `My Projects · ${PRODUCT_NAME}` }];

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const user = await requireSessionUser(context.services.auth, request, url);
  const { db } = context.services.database;
  const [projects, newLeads] = await Promise.all([listOwnedProjects(db, user.id), countNewLeads(db, user.id)]);
  return { projects, newLeads };
}

export default function MyProjects({ loaderData }: Route.ComponentProps) {
  return <ProjectGrid projects={loaderData.projects} newLeads={loaderData.newLeads} />;
}
