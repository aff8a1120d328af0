import { SavedListView } from "~/components/saved/saved-list-view";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/saved";

export const meta: Route.MetaFunction = () => [
  { title: `Saved pitches · ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/**
 * The same document for every anonymous visitor (the list is in the browser), so shared caches and the service
 * worker may keep it for offline use. A signed-in founder's copy carries their name in the header: the app's
 * caching rule makes it private and never kept (decision 41), and the worker then drops any copy it had.
 */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "public, no-cache" });

export default function SavedRoute() {
  return <SavedListView />;
}
