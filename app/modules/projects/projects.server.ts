import type { Kysely } from "kysely";
import type { Database, Project } from "~/db/schema";

/**
 * The project behind a pitch page: published projects for everyone, a draft only for its owner.
 * Anyone else gets nothing, exactly as for a slug that does not exist.
 */
export async function findViewableProjectBySlug(
  db: Kysely<Database>,
  slug: string,
  viewerId: string | null,
): Promise<Project | null> {
  const project = await db.selectFrom("projects").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (!project) return null;
  if (project.status === "published" || project.owner_id === viewerId) return project;
  return null;
}
