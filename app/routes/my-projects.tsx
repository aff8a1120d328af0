import { ProjectGrid } from "~/components/founder/project-grid";
import { requireSessionUser } from "~/modules/auth/session.server";
import { listOwnedProjects } from "~/modules/projects/founder-projects.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/my-projects";

export const meta: Route.MetaFunction = () => [{ title: `My Projects · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireSessionUser(context.services.auth, request);
  return { projects: await listOwnedProjects(context.services.database.db, user.id) };
}

export default function MyProjects({ loaderData }: Route.ComponentProps) {
  return <ProjectGrid projects={loaderData.projects} />;
}
