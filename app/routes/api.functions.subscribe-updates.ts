import { z } from "zod/mini";
import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { submitVisitorJson } from "~/modules/visitor-forms/visitor-submission.server";
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
    const outcome = await submitVisitorJson(context, request, {
      intent: "subscribe",
      projectId: body.projectId,
      values: { name: body.contact.name, email: body.contact.email, consent: body.consent },
      honeypot: body.website,
    });
    return { success: true, message: outcome.message };
  });
}

export function loader() {
  return methodNotAllowed();
}
