import { clientIpOf } from "~/modules/http/client-ip.server";
import { respondJson } from "~/modules/http/api.server";
import { openWallStream, parseCursor } from "~/modules/recognition/wall-stream.server";
import type { Route } from "./+types/api.wall.stream";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { database, events, streams, logger } = context.services;
  return respondJson(logger, () =>
    openWallStream({ db: database.db, events, streams, logger }, params.projectId, parseCursor(request), request.signal, clientIpOf(request)),
  );
}
