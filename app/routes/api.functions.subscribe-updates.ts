import { z } from "zod/mini";
import { getSessionUser } from "~/modules/auth/session.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { handleVisitorSubmission } from "~/modules/pitch/visitor-actions.server";
import type { Route } from "./+types/api.functions.subscribe-updates";

/** SPEC.md section 7: {projectId, contact{name,email}, consent}; field rules live in subscribeSchema. */
const bodySchema = z.object({
  projectId: z.string("Project not found"),
  contact: z.object({ name: z.optional(z.unknown()), email: z.optional(z.unknown()) }),
  consent: z.optional(z.unknown()),
  website: z.optional(z.string()),
});

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return respondJson(context.logger, async () => {
    const body = await readJsonBody(request, bodySchema);
    const viewer = await getSessionUser(context.services.auth, request);
    const outcome = await handleVisitorSubmission(context.services, {
      intent: "subscribe",
      projectId: body.projectId,
      values: { name: body.contact.name, email: body.contact.email, consent: body.consent },
      clientIp: clientIpOf(request),
      honeypot: body.website ?? "",
      visitor: { userId: viewer?.id ?? null },
      cookieHeader: request.headers.get("cookie"),
      userAgent: request.headers.get("user-agent"),
    });
    return { success: true, message: outcome.message };
  });
}

export function loader() {
  return methodNotAllowed();
}
