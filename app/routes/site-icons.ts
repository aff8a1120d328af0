import { siteIconResponse } from "~/modules/icons/icon-response.server";
import type { Route } from "./+types/site-icons";

/** GET /icons/{icon-192,icon-512,apple-touch-icon,favicon-32}.png: the installable site's icons, from app icon concept 1. */
export function loader({ request, params }: Route.LoaderArgs) {
  return siteIconResponse(request, params.file);
}
