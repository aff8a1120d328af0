import { getSessionUser } from "~/modules/auth/session.server";
import { contentDisposition } from "~/modules/http/content-disposition";
import { respondJson } from "~/modules/http/api.server";
import { DomainError } from "~/modules/errors.server";
import { loadEventSheet, parseEventSheetSize } from "~/modules/qr/event-sheet.server";
import { chosenSheetCodes } from "~/modules/qr/qr-form";
import type { Route } from "./+types/project.qr-sheet";

/**
 * GET /project/{id}/qr/sheet.svg?size=a4|letter&code=…&page=n: one page of the event sheet (every chosen code on
 * one sheet, decision 64) as a download. 401 signed out, 404 for anyone but the owner, 400 for an unknown size or page.
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const user = await getSessionUser(context.services.auth, request);
  if (!user) return Response.json({ error: "Sign in to print QR codes" }, { status: 401 });
  return respondJson(context.logger, async () => {
    const size = parseEventSheetSize(url.searchParams.get("size"));
    const sheet = await loadEventSheet(context.services.database.db, user.id, context.services.config.publicUrl, params.id, chosenSheetCodes(url.searchParams), size);
    const page = Number(url.searchParams.get("page") ?? "1");
    const svg = Number.isInteger(page) ? sheet.pages[page - 1] : undefined;
    if (!svg) throw new DomainError("invalid_input", sheet.pages.length ? `page must be 1 to ${sheet.pages.length}` : "Choose at least one QR code");
    const suffix = sheet.pages.length > 1 ? `-${page}` : "";
    return new Response(svg, {
      headers: {
        "Content-Type": "image/svg+xml; charset=utf-8",
        "Content-Disposition": contentDisposition(`${sheet.project.slug}-qr-codes-${size}${suffix}.svg`),
        "Cache-Control": "private, no-store",
      },
    });
  });
}
