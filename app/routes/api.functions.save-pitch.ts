import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { recordPitchSave, savePitchSchema } from "~/modules/saved/saves.server";
import type { Route } from "./+types/api.functions.save-pitch";

/** The pitch page's Save tells the server, which counts the visitor once and names the event. */
export function action({ request, context }: Route.ActionArgs) {
  const { database, pageDoor } = context.services;
  return respondJson(context.logger, async () => {
    const input = await readJsonBody(request, savePitchSchema);
    const clientAddress = clientIpOf(request);
    const identity = pageDoor.identify(input.projectId, { cookieHeader: request.headers.get("cookie"), clientAddress, userAgent: request.headers.get("user-agent") });
    return recordPitchSave(database.db, { identity, clientAddress }, input);
  });
}

export function loader() {
  return methodNotAllowed();
}
