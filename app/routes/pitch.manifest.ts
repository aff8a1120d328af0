import { pitchManifest } from "~/modules/icons/web-manifest";
import { readPublishedPitchSummary } from "~/modules/pitch/pitch-page.server";
import type { Route } from "./+types/pitch.manifest";

/** GET /pitch/{slug}/manifest.webmanifest: added to a home screen, a pitch page keeps its own title (decision 11). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const project = await readPublishedPitchSummary(context.services.database.db, params.slug);
  if (!project) return Response.json({ error: "Project not found" }, { status: 404, headers: { "Cache-Control": "no-store" } });
  return Response.json(pitchManifest(project), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": "public, max-age=300" },
  });
}
