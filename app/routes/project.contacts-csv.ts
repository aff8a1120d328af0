import { Readable } from "node:stream";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { contentDisposition } from "~/modules/http/content-disposition";
import { respondJson } from "~/modules/http/api.server";
import type { Route } from "./+types/project.contacts-csv";

/** GET /project/{id}/contacts.csv: the owner's contacts, streamed. 401 signed out, 404 for anyone else. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getSessionUser(context.services.auth, request);
  if (!user) return Response.json({ error: "Sign in to export contacts" }, { status: 401 });
  return respondJson(context.logger, async () => {
    const csv = await exportContactsCsv(context.services.database.db, user.id, params.id);
    return new Response(Readable.toWeb(csv.body) as ReadableStream, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": contentDisposition(csv.fileName),
        "Cache-Control": "no-store",
        "X-Contact-Count": String(csv.count),
      },
    });
  });
}
