import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { requestingBrowser } from "~/modules/http/requesting-browser.server";
import { emailSavedListSchema } from "~/modules/saved/saved-list-form";
import { emailSavedList } from "~/modules/saved/saved-list-mail.server";
import type { Route } from "./+types/api.functions.email-saved-list";

/**
 * 'E-mail me this list' on `/saved`: the address and the saved slugs; the server writes the e-mail, to an
 * address this browser confirmed, or else asks the address to confirm first (decision 38).
 */
export function action({ request, context }: Route.ActionArgs) {
  const { database, pageDoor, mailLinks, mail, listMailCookie } = context.services;
  return respondJson(context.logger, async () => {
    const input = await readJsonBody(request, emailSavedListSchema);
    const requester = { ...requestingBrowser(request, pageDoor, "saved-list"), confirmedAddress: listMailCookie.addressOf(request.headers.get("cookie")) };
    const outcome = await emailSavedList(database.db, mailLinks, requester, input);
    mail.wake();
    return { ok: true, ...outcome };
  });
}

export function loader() {
  return methodNotAllowed();
}
