import { readJsonBody, methodNotAllowed, respondJson } from "~/modules/http/api.server";
import { unsubscribeSchema } from "~/modules/contacts/unsubscribe-form";
import { unsubscribeEmail } from "~/modules/contacts/unsubscribe.server";
import type { Route } from "./+types/api.functions.handle-unsubscribe";

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return respondJson(context.logger, async () => {
    const { email } = await readJsonBody(request, unsubscribeSchema);
    const updated = await unsubscribeEmail(context.services.database.db, email);
    context.logger.info({ updated }, "unsubscribe by address");
    return { success: true };
  });
}

export function loader() {
  return methodNotAllowed();
}
