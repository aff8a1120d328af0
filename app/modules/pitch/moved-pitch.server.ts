import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { isRecordId } from "~/modules/http/id-shape";
import { findProjectByFormerSlug } from "~/modules/projects/slug-history.server";

/**
 * Printed codes that never die (decisions 63 and 64): a pitch address whose slug the project has since changed,
 * or whose `?qr=` code was re-pointed from it to another project, answers a permanent redirect to the pitch the code leads
 * to now, with the query kept. The redirect is not a page load: the door counts the page it leads to, once.
 */

/** A pitch is viewable by everyone once published; a draft only by its owner (as `findViewableProjectBySlug`). */
function viewable(project: { status: string; owner_id: string }, viewerId: string | null): boolean {
  return project.status === "published" || project.owner_id === viewerId;
}

/** The current slug of the project that once had `slug`, when the viewer may see it; null otherwise. */
export async function currentSlugOf(db: Kysely<Database>, slug: string, viewerId: string | null): Promise<string | null> {
  const project = await findProjectByFormerSlug(db, slug);
  return project && viewable(project, viewerId) ? project.slug : null;
}

/**
 * Where code `qrCodeId` leads when a recorded re-pointing took it away from `projectId` (`qr_code_moves`): the slug of
 * the project it opens now, when the viewer may see it. Null for this project's own code, an unknown one, one that
 * leads nowhere viewable, and another project's code that was never this project's: a link pairing a pitch with a
 * foreign code opens that pitch, and the scan is not credited to the code (`recordScans`).
 */
export async function codeMovedTo(db: Kysely<Database>, qrCodeId: string | null, projectId: string, viewerId: string | null): Promise<string | null> {
  if (!qrCodeId || !isRecordId(qrCodeId)) return null;
  const row = await db
    .selectFrom("qr_codes")
    .innerJoin("projects", "projects.id", "qr_codes.project_id")
    .select(["projects.id", "projects.slug", "projects.status", "projects.owner_id"])
    .where("qr_codes.id", "=", qrCodeId)
    .where((eb) =>
      eb.exists(eb.selectFrom("qr_code_moves").select("qr_code_moves.id").whereRef("qr_code_moves.qr_code_id", "=", "qr_codes.id").where("qr_code_moves.from_project_id", "=", projectId)),
    )
    .executeTakeFirst();
  if (!row || row.id === projectId || !viewable(row, viewerId)) return null;
  return row.slug;
}

/** The permanent redirect's address: the pitch at `slug` with the request's whole query (`?qr=` and the rest). */
export function movedPitchLocation(slug: string, search: string): string {
  return `/pitch/${encodeURIComponent(slug)}${search && search !== "?" ? (search.startsWith("?") ? search : `?${search}`) : ""}`;
}

/**
 * Answered with every moved pitch address: 308 keeps the method (a form posted to an old address is posted again to
 * the new one); not stored, so a slug taken back or a code re-pointed again takes effect at once in every browser
 * (a stored permanent redirect would otherwise loop A → B → A after the project took A back).
 */
export const MOVED_PITCH_STATUS = 308;
export const MOVED_PITCH_CACHE_CONTROL = "no-store";
