import { siteIconResponse } from "~/modules/icons/icon-response.server";
import type { Route } from "./+types/favicon";

/** GET /favicon.svg: app icon concept 1 with rounded corners. */
export function loader({ request }: Route.LoaderArgs) {
  return siteIconResponse(request, "favicon.svg");
}
