import { Readable } from "node:stream";
import { getSessionUser } from "~/modules/auth/session.server";
import { openDeckFile } from "~/modules/deck/deck-files.server";
import { respondJson } from "~/modules/http/api.server";
import { contentDisposition } from "~/modules/http/content-disposition";
import type { Route } from "./+types/deck.file";

/**
 * GET /deck/{deckId}/{file}: a deck's page image (`page-{n}-{width}.webp|jpg`), or its PDF when the founder lets
 * visitors download it; from whichever store the app uses, so any instance answers. 304 for a matching validator.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auth, database, store } = context.services;
  return respondJson(context.logger, async () => {
    const file = await openDeckFile(database.db, store, async () => (await getSessionUser(auth, request))?.id ?? null, params.deckId, params.file);
    const headers = new Headers({ "Cache-Control": file.cacheControl, ETag: file.etag });
    if (request.headers.get("If-None-Match") === file.etag) {
      file.object.body.destroy();
      return new Response(null, { status: 304, headers });
    }
    headers.set("Content-Type", file.object.contentType);
    headers.set("Content-Length", String(file.object.size));
    if (file.downloadName) headers.set("Content-Disposition", contentDisposition(file.downloadName));
    return new Response(Readable.toWeb(file.object.body) as ReadableStream, { headers });
  });
}
