import { z } from "zod/mini";
import { getSessionUser } from "~/modules/auth/session.server";
import { DomainError } from "~/modules/errors.server";
import { methodNotAllowed, readJsonBody, respondJson } from "~/modules/http/api.server";
import { renderQrImages } from "~/modules/qr/qr-codes.server";
import { qrDownloadName } from "~/modules/qr/qr-form";
import type { Route } from "./+types/api.functions.generate-qr-code";

/** {slug, qrCodeId} → {png} (a data URL), plus the SVG and the download names. Owner only. */
const bodySchema = z.object({
  slug: z.string("slug is required").check(z.minLength(1, "slug is required"), z.maxLength(80)),
  qrCodeId: z.string("qrCodeId is required").check(z.minLength(1, "qrCodeId is required"), z.maxLength(64)),
});

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return respondJson(context.logger, async () => {
    const user = await getSessionUser(context.services.auth, request);
    if (!user) throw new DomainError("unauthenticated", "Sign in to download QR codes");
    const { slug, qrCodeId } = await readJsonBody(request, bodySchema);
    const images = await renderQrImages(context.services.database.db, user.id, context.services.config.publicUrl, slug, qrCodeId);
    return {
      url: images.url,
      png: `data:image/png;base64,${images.png.toString("base64")}`,
      svg: images.svg,
      pngFileName: qrDownloadName(images.slug, images.label, "png"),
      svgFileName: qrDownloadName(images.slug, images.label, "svg"),
    };
  });
}

export function loader() {
  return methodNotAllowed();
}
