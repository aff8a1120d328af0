import { renderAppIcon } from "~/modules/icons/app-icons.server";
import { appIconDownloadName, isAppIconConcept } from "~/modules/icons/concepts";
import { iconResponse, notFound } from "~/modules/icons/icon-response.server";
import type { Route } from "./+types/app-icons";

/** GET /app-icons/concept-{n}.png: the generator's 1024x1024 PNGs (rendered once, then from memory). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const concept = Number(/^concept-([1-3])\.png$/.exec(params.file)?.[1]);
  if (!isAppIconConcept(concept)) return notFound();
  return iconResponse(request, await renderAppIcon(concept), { fileName: appIconDownloadName(concept) });
}
