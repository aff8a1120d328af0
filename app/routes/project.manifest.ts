import { workspaceManifest } from "~/modules/icons/web-manifest";

/** GET /project/manifest.webmanifest: the founder workspace installed on a home screen (decision 56). */
export function loader() {
  return Response.json(workspaceManifest(), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": "public, max-age=86400" },
  });
}
