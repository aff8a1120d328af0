import { siteManifest } from "~/modules/icons/web-manifest";

/** GET /manifest.webmanifest: the product's web app manifest (decision 11). */
export function loader() {
  return Response.json(siteManifest(), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": "public, max-age=86400" },
  });
}
