import { resolveBoothAccess } from "~/modules/booth/booth-access.server";
import { openBoothStream, parseBoothCursor } from "~/modules/booth/booth-stream.server";
import { boothDayStart, BOOTH_NOT_FOUND } from "~/modules/booth/booth.server";
import { DomainError } from "~/modules/errors.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { respondJson } from "~/modules/http/api.server";
import type { Route } from "./+types/project.booth-stream";

/** The booth screen's live stream; its "today" is the owner's day (decision 53). */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { database, auth, events, streams, logger } = context.services;
  return respondJson(logger, async () => {
    const access = await resolveBoothAccess({ db: database.db, auth }, request, params.id, null);
    if (access.kind !== "viewer") throw new DomainError("not_found", BOOTH_NOT_FOUND);
    const today = await boothDayStart(database.db, params.id, new Date());
    return openBoothStream({ db: database.db, events, streams, logger }, access.viewer, params.id, today, parseBoothCursor(request), request.signal, clientIpOf(request));
  });
}
