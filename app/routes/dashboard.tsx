import { DashboardView } from "~/components/founder/dashboard-view";
import { loadActivityFeed } from "~/modules/activity/activity.server";
import { requireSessionUser } from "~/modules/auth/session.server";
import { countNewLeads } from "~/modules/leads/inbox/lead-inbox.server";
import { listTeamProjects } from "~/modules/projects/founder-projects.server";
import { operatorBannerFor } from "~/modules/operator/operator-banner.server";
import { listMySignals } from "~/modules/signals/my-signals.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: `Dashboard · ${PRODUCT_NAME}` }];

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const { auth, database } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const session = await auth.api.getSession({ headers: request.headers });
  const [projects, mySignals, newLeads] = await Promise.all([
    listTeamProjects(database.db, user.id),
    listMySignals(database.db, { id: user.id, email: user.email, emailVerified: Boolean(session?.user.emailVerified) }),
    countNewLeads(database.db, user.id),
  ]);
  const isFounder = projects.length > 0;
  return {
    // The owner of any project is the one who can act on the operator's set-up.
    setupBanner: operatorBannerFor(context.services, request, url, projects.some((project) => project.role === "owner") ? "owner" : null, ["qr-address"]),
    isFounder,
    projects: projects.map(({ id, title, slug, status, role }) => ({ id, title, slug, status, role, newLeads: newLeads[id] ?? 0 })),
    activity: isFounder ? await loadActivityFeed(database.db, user.id) : [],
    mySignals,
    now: new Date().toISOString(),
  };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return <DashboardView {...loaderData} />;
}
