import { Readable } from "node:stream";
import { getSessionUser } from "~/modules/auth/session.server";
import { contentDisposition } from "~/modules/http/content-disposition";
import { readLeadFilters } from "~/modules/leads/lead-forms";
import { exportLeadVCards } from "~/modules/leads/capture/lead-vcards.server";
import { respondJson } from "~/modules/http/api.server";
import type { Route } from "./+types/project.leads-vcf";

/** GET /project/{id}/leads.vcf?action=…&event=…: the filtered leads as one vCard file. 401 signed out, 404 for anyone else. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const user = await getSessionUser(context.services.auth, request);
  if (!user) return Response.json({ error: "Sign in to download vCards" }, { status: 401 });
  return respondJson(context.logger, async () => {
    const vcards = await exportLeadVCards(context.services.database.db, user.id, params.id, readLeadFilters(url.searchParams));
    return new Response(Readable.toWeb(vcards.body) as ReadableStream, {
      headers: { "Content-Type": "text/vcard; charset=utf-8", "Content-Disposition": contentDisposition(vcards.fileName), "Cache-Control": "no-store" },
    });
  });
}
