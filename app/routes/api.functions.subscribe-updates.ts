import { z } from "zod/mini";
import { methodNotAllowed } from "~/modules/http/api.server";
import { answerVisitorJson } from "~/modules/visitor-forms/http/visitor-form-http.server";
import type { Route } from "./+types/api.functions.subscribe-updates";

/** {projectId, contact{name,email}, consent}; field rules live in subscribeSchema. */
const bodySchema = z.object({
  projectId: z.string("Project not found"),
  contact: z.object({ name: z.optional(z.unknown()), email: z.optional(z.unknown()) }),
  consent: z.optional(z.unknown()),
  website: z.optional(z.string()),
});

export function action({ request, context }: Route.ActionArgs) {
  return answerVisitorJson(context, request, "subscribe", bodySchema, (body) => ({ name: body.contact.name, email: body.contact.email, consent: body.consent }));
}

export function loader() {
  return methodNotAllowed();
}
