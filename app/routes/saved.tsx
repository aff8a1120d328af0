import { data } from "react-router";
import { SavedListView } from "~/components/saved/saved-list-view";
import { getSessionUser } from "~/modules/auth/session.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/saved";

export const meta: Route.MetaFunction = () => [
  { title: `Saved pitches · ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/**
 * The same document for every anonymous visitor (the list is in the browser), so shared caches and the service
 * worker may keep it for offline use. A signed-in founder's copy carries their name in the header: private, never
 * kept (the worker then drops any copy it had, as for an owner's pitch page).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(context.services.auth, request);
  return data(null, { headers: { "Cache-Control": user ? "private, no-store" : "public, no-cache" } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => ({ "Cache-Control": loaderHeaders.get("Cache-Control") ?? "private, no-store" });

export default function SavedRoute() {
  return <SavedListView />;
}
