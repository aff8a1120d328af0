import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { generateAppIcon } from "~/modules/icons/app-icons.server";
import { generateAppIconSchema } from "~/modules/icons/concepts";
import type { Route } from "./+types/api.functions.generate-app-icon";

/**
 * {concept: 1 to 3} → {imageUrl} (where the 1024x1024 PNG is served), or 400 {error}.
 * Public, like the developer tool that calls it: the icons are the product's, and each is rendered once.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return respondJson(context.logger, async () => {
    const { concept } = await readJsonBody(request, generateAppIconSchema);
    return generateAppIcon(concept);
  });
}

export function loader() {
  return methodNotAllowed();
}
