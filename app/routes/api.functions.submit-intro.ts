import { z } from "zod/mini";
import { methodNotAllowed } from "~/modules/http/api.server";
import { answerVisitorJson } from "~/modules/visitor-forms/http/visitor-form-http.server";

import type { Route } from "./+types/api.functions.submit-intro";

/**
 * {projectId, contact{name,email,linkedinUrl}, note, roleTags}, and `answer` to the project's
 * qualifying question when it asks one; field rules live in introSchema.
 */
const bodySchema = z.object({
  projectId: z.string("Project not found"),
  contact: z.object({ name: z.optional(z.unknown()), email: z.optional(z.unknown()), linkedinUrl: z.optional(z.unknown()) }),
  note: z.optional(z.unknown()),
  roleTags: z.optional(z.unknown()),
  answer: z.optional(z.unknown()),
  website: z.optional(z.string()),
});

export function action({ request, context }: Route.ActionArgs) {
  return answerVisitorJson(context, request, "intro", bodySchema, (body) => ({
    name: body.contact.name,
    email: body.contact.email,
    linkedinUrl: body.contact.linkedinUrl ?? undefined,
    note: body.note,
    roleTags: body.roleTags ?? [],
    answer: body.answer,
  }));
}

export function loader() {
  return methodNotAllowed();
}
