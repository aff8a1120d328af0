import { readJsonBody, methodNotAllowed, respondJson } from "~/modules/http/api.server";
import { unsubscribeSchema } from "~/modules/contacts/unsubscribe-form";
import { requestUnsubscribeByAddress } from "~/modules/contacts/unsubscribe.server";
import { requestingBrowser } from "~/modules/http/requesting-browser.server";
import type { Route } from "./+types/api.functions.handle-unsubscribe";

/** The function's `{email}`: like the /unsubscribe form, it only mails that address a confirmation link (decision 37). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const { database, mailLinks, pageDoor, mail } = context.services;
  return respondJson(context.logger, async () => {
    const { email } = await readJsonBody(request, unsubscribeSchema);
    const { mailed } = await requestUnsubscribeByAddress(database.db, mailLinks, requestingBrowser(request, pageDoor, "unsubscribe"), email);
    if (mailed) mail.wake();
    context.logger.info({ mailed }, "unsubscribe asked by address");
    // The same answer whether or not the address was known.
    return { success: true, confirmationSent: true, message: "Check your inbox: nothing changes until the link we sent is opened and confirmed." };
  });
}

export function loader() {
  return methodNotAllowed();
}
