import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { isRecordId } from "~/modules/http/id-shape";
import { findProjectByFormerSlug } from "~/modules/projects/slug-history.server";

/**
 * Printed codes that never die (decisions 63 and 64): a pitch address whose slug the project has since changed,
 * or whose `?qr=` code was re-pointed to another project, answers a permanent redirect to the pitch the code leads
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
 * Where code `qrCodeId` leads when it belongs to another project than `projectId` (it was re-pointed): that
 * project's slug, when the viewer may see it; null when the code is this project's, unknown, or leads nowhere viewable.
 */
export async function codeMovedTo(db: Kysely<Database>, qrCodeId: string | null, projectId: string, viewerId: string | null): Promise<string | null> {
  if (!qrCodeId || !isRecordId(qrCodeId)) return null;
  const row = await db
    .selectFrom("qr_codes")
    .innerJoin("projects", "projects.id", "qr_codes.project_id")
    .select(["projects.id", "projects.slug", "projects.status", "projects.owner_id"])
    .where("qr_codes.id", "=", qrCodeId)
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
