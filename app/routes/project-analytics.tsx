import { AnalyticsView } from "~/components/founder/analytics-view";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { requireSessionUser } from "~/modules/auth/session.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-analytics";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Analytics: ${loaderData?.analytics.project.title ?? "Project"} · ${PRODUCT_NAME}` },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request);
  const analytics = await orRedirectToMyProjects(flashCookie, () => loadProjectAnalytics(database.db, user.id, params.id));
  return { analytics, now: new Date().toISOString() };
}

export default function ProjectAnalytics({ loaderData }: Route.ComponentProps) {
  return <AnalyticsView analytics={loaderData.analytics} now={loaderData.now} />;
}
