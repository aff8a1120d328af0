import { getSessionUser } from "~/modules/auth/session.server";
import { contentDisposition } from "~/modules/http/content-disposition";
import { leadVCard } from "~/modules/leads/capture/lead-vcards.server";
import { respondJson } from "~/modules/http/api.server";
import type { Route } from "./+types/project.lead-vcf";

/** GET /project/{id}/leads/{leadId}/vcard.vcf: one lead's vCard. 401 signed out, 404 for anyone else or another project's lead. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getSessionUser(context.services.auth, request);
  if (!user) return Response.json({ error: "Sign in to download vCards" }, { status: 401 });
  return respondJson(context.logger, async () => {
    const vcard = await leadVCard(context.services.database.db, user.id, params.id, params.leadId);
    return new Response(vcard.body, {
      headers: { "Content-Type": "text/vcard; charset=utf-8", "Content-Disposition": contentDisposition(vcard.fileName), "Cache-Control": "no-store" },
    });
  });
}
