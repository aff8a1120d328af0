import { z } from "zod/mini";
import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { submitVisitorJson } from "~/modules/visitor-forms/visitor-submission.server";

import type { Route } from "./+types/api.functions.submit-intro";

/** SPEC.md section 7: {projectId, contact{name,email,linkedinUrl}, note, roleTags}; field rules live in introSchema. */
const bodySchema = z.object({
  projectId: z.string("Project not found"),
  contact: z.object({ name: z.optional(z.unknown()), email: z.optional(z.unknown()), linkedinUrl: z.optional(z.unknown()) }),
  note: z.optional(z.unknown()),
  roleTags: z.optional(z.unknown()),
  website: z.optional(z.string()),
});

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return respondJson(context.logger, async () => {
    const body = await readJsonBody(request, bodySchema);
    const outcome = await submitVisitorJson(context, request, {
      intent: "intro",
      projectId: body.projectId,
      values: {
        name: body.contact.name,
        email: body.contact.email,
        linkedinUrl: body.contact.linkedinUrl ?? undefined,
        note: body.note,
        roleTags: body.roleTags ?? [],
      },
      honeypot: body.website,
    });
    return { success: true, message: outcome.message, blurb: outcome.blurb };
  });
}

export function loader() {
  return methodNotAllowed();
}
