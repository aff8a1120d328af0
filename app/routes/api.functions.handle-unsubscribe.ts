import { readJsonBody, methodNotAllowed, respondJson } from "~/modules/http/api.server";
import { unsubscribeSchema } from "~/modules/contacts/unsubscribe-form";
import { unsubscribeEmailLimited } from "~/modules/contacts/unsubscribe.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import type { Route } from "./+types/api.functions.handle-unsubscribe";

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return respondJson(context.logger, async () => {
    const { email } = await readJsonBody(request, unsubscribeSchema);
    const updated = await unsubscribeEmailLimited(context.services.database.db, email, clientIpOf(request));
    context.logger.info({ updated }, "unsubscribe by address");
    return { success: true };
  });
}

export function loader() {
  return methodNotAllowed();
}
