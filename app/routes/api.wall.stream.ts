import { isDomainError } from "~/modules/errors.server";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { openWallStream, parseCursor } from "~/modules/recognition/wall-stream.server";
import type { Route } from "./+types/api.wall.stream";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { database, events, streams, logger } = context.services;
  try {
    return await openWallStream({ db: database.db, events, streams, logger }, params.projectId, parseCursor(request), request.signal, clientIpOf(request));
  } catch (error) {
    if (isDomainError(error)) {
      const retryAfter = error.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(error.retryAfterSeconds) };
      return Response.json({ error: error.message }, { status: error.status, headers: retryAfter });
    }
    throw error;
  }
}
