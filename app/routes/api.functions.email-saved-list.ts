import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { emailSavedListSchema } from "~/modules/saved/saved-list-form";
import { emailSavedList } from "~/modules/saved/saved-list-mail.server";
import type { Route } from "./+types/api.functions.email-saved-list";

/** Issue 17: 'E-mail me this list' on `/saved`: the address and the saved slugs; the server writes the e-mail. */
export function action({ request, context }: Route.ActionArgs) {
  const { database, pageDoor, mailLinks, mail } = context.services;
  return respondJson(context.logger, async () => {
    const input = await readJsonBody(request, emailSavedListSchema);
    const clientAddress = clientIpOf(request);
    // Not a project's visitor: the browser is known by its viewer cookie, else by its address and user agent.
    const browser = pageDoor.identify("saved-list", { cookieHeader: request.headers.get("cookie"), clientAddress, userAgent: request.headers.get("user-agent") });
    const result = await emailSavedList(database.db, mailLinks, { browserKey: browser.viewerFingerprint ?? browser.addressHash ?? clientAddress, clientAddress }, input);
    mail.wake();
    return { ok: true, ...result };
  });
}

export function loader() {
  return methodNotAllowed();
}
