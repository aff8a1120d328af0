import { siteIconResponse } from "~/modules/icons/icon-response.server";
import type { Route } from "./+types/apple-touch-icon";

/** GET /apple-touch-icon.png: where iOS looks for a home-screen icon when a page names none (180x180, opaque). */
export function loader({ request }: Route.LoaderArgs) {
  return siteIconResponse(request, "apple-touch-icon.png");
}
