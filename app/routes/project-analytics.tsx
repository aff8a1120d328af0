import { data, Link } from "react-router";
import { AnalyticsView } from "~/components/founder/analytics-view";
import { loadAnalyticsPage } from "~/modules/deck-reading/analytics-page.server";
import { requireSessionUser } from "~/modules/auth/session.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-analytics";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Analytics: ${loaderData?.analytics.project.title ?? "Project"} · ${PRODUCT_NAME}` },
];

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const started = performance.now();
  const { analytics, deckReaders } = await orRedirectToMyProjects(flashCookie, () => loadAnalyticsPage(database.db, user.id, params.id, url.searchParams.get("audience")));
  const serverTiming = `analytics;desc="analytics data load";dur=${(performance.now() - started).toFixed(2)}`;
  return data({ analytics, deckReaders, projectRole: analytics.project.role, now: new Date().toISOString() }, { headers: { "Server-Timing": serverTiming } });
}

/** The data load's own time, for the browser's network panel and `npm run bench`. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  const timing = loaderHeaders.get("Server-Timing");
  if (timing) headers.set("Server-Timing", timing);
  return headers;
};

/** A failure to load shows 'Failed to load analytics' (the detail is in the server log). */
export function ErrorBoundary() {
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">Failed to load analytics</h1>
      <p className="mt-3 text-slate-600">Please try again in a moment.</p>
      <Link to="/my-projects" className="mt-6 inline-block font-medium text-brand-600 underline">
        Back to Projects
      </Link>
    </main>
  );
}

export default function ProjectAnalytics({ loaderData }: Route.ComponentProps) {
  return <AnalyticsView analytics={loaderData.analytics} deckReaders={loaderData.deckReaders} now={loaderData.now} />;
}
