import { SavedListView } from "~/components/saved/saved-list-view";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/saved";

export const meta: Route.MetaFunction = () => [
  { title: `Saved pitches · ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/** The same document for everyone (the list is in the browser), so the service worker may keep it for offline use. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "public, no-cache" });

export default function SavedRoute() {
  return <SavedListView />;
}
