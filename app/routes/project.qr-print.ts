import { getSessionUser } from "~/modules/auth/session.server";
import { contentDisposition } from "~/modules/http/content-disposition";
import { parsePrintSheetSize, renderPrintSheet } from "~/modules/qr/print-sheet.server";
import { respondJson } from "~/modules/http/api.server";
import type { Route } from "./+types/project.qr-print";

/**
 * GET /project/{id}/qr/{qrId}/print.svg[?size=letter]: one code's print sheet (decision 11), as a download.
 * 401 signed out, 404 for anyone but the owner, 400 for an unknown size.
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const user = await getSessionUser(context.services.auth, request);
  if (!user) return Response.json({ error: "Sign in to print QR codes" }, { status: 401 });
  return respondJson(context.logger, async () => {
    const size = parsePrintSheetSize(url.searchParams.get("size"));
    const sheet = await renderPrintSheet(context.services.database.db, user.id, context.services.config.publicUrl, params.id, params.qrId, size);
    return new Response(sheet.svg, {
      headers: {
        "Content-Type": "image/svg+xml; charset=utf-8",
        "Content-Disposition": contentDisposition(sheet.fileName),
        "Cache-Control": "private, no-store",
      },
    });
  });
}
