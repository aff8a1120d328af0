import { isbot } from "isbot";
import { DomainError } from "~/modules/errors.server";
import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { normalizeScan, trackScanSchema } from "~/modules/scans/scans.server";
import type { Route } from "./+types/api.functions.track-scan";

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return respondJson(context.logger, async () => {
    const input = await readJsonBody(request, trackScanSchema);
    // Crawlers and link-preview fetchers that run scripts are not visitors.
    if (isbot(request.headers.get("user-agent"))) return { success: true, counted: false };
    const stored = await context.services.scans.record(normalizeScan(input));
    if (!stored) throw new DomainError("not_found", "Project not found");
    return { success: true, counted: true };
  });
}

export function loader() {
  return methodNotAllowed();
}
