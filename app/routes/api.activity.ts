import { loadActivityFeed } from "~/modules/activity/activity.server";
import { getSessionUser } from "~/modules/auth/session.server";
import type { Route } from "./+types/api.activity";

/** GET /api/activity: the signed-in founder's feed (own projects only), polled by the dashboard. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(context.services.auth, request);
  if (!user) return Response.json({ error: "Sign in to see your activity" }, { status: 401 });
  const items = await loadActivityFeed(context.services.database.db, user.id);
  return Response.json({ items }, { headers: { "Cache-Control": "no-store" } });
}
