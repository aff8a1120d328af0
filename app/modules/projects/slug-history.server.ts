import type { Kysely } from "kysely";
import type { Database, Project } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { SLUG_PATTERN, SLUG_TAKEN_MESSAGE } from "./project-form";

/**
 * Every slug a project has had keeps opening it (decision 63). `project_slugs` holds each project's current slug and
 * every former one; its key is the slug, so a slug belongs to one project for good: another project asking for it
 * (current or former) is told the slug is taken, and the project itself may take a former slug back.
 */

export function slugTaken(): DomainError {
  return new DomainError("conflict", SLUG_TAKEN_MESSAGE, { slug: SLUG_TAKEN_MESSAGE });
}

/**
 * Gives `slug` to `projectId` for good, inside the caller's transaction: kept when it is already the project's
 * (a former slug taken back), refused with the spec's 'slug taken' when another project has or had it. The insert
 * names the key, so two projects racing for one slug wait for each other and the second is refused.
 */
export async function claimSlug(db: Kysely<Database>, projectId: string, slug: string, now = new Date()): Promise<void> {
  await db
    .insertInto("project_slugs")
    .values({ slug, project_id: projectId, created_at: now.toISOString() })
    .onConflict((oc) => oc.column("slug").doNothing())
    .execute();
  const holder = await db.selectFrom("project_slugs").select("project_id").where("slug", "=", slug).executeTakeFirst();
  if (holder?.project_id !== projectId) throw slugTaken();
}

/** Keeps a slug the project has (had), without checking: a project made before slugs were kept, renamed now. */
export async function rememberSlug(db: Kysely<Database>, projectId: string, slug: string, now = new Date()): Promise<void> {
  await db
    .insertInto("project_slugs")
    .values({ slug, project_id: projectId, created_at: now.toISOString() })
    .onConflict((oc) => oc.column("slug").doNothing())
    .execute();
}

export type MovedProject = Pick<Project, "id" | "slug" | "status" | "owner_id">;

/**
 * The project that once had `slug` and now has another one (null for a current slug or one never used). The
 * answer is always a project's current slug, so following it never loops: a slug taken back is current again and
 * is found by the page itself, never here.
 */
export async function findProjectByFormerSlug(db: Kysely<Database>, slug: string): Promise<MovedProject | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  const row = await db
    .selectFrom("project_slugs")
    .innerJoin("projects", "projects.id", "project_slugs.project_id")
    .select(["projects.id", "projects.slug", "projects.status", "projects.owner_id"])
    .where("project_slugs.slug", "=", slug)
    .where("projects.slug", "!=", slug)
    .executeTakeFirst();
  return row ?? null;
}

/** The project's slugs before its current one, newest first (the edit screen names them). */
export async function formerSlugsOf(db: Kysely<Database>, projectId: string, currentSlug: string): Promise<string[]> {
  const rows = await db
    .selectFrom("project_slugs")
    .select("slug")
    .where("project_id", "=", projectId)
    .where("slug", "!=", currentSlug)
    .orderBy("created_at", "desc")
    .orderBy("slug")
    .execute();
  return rows.map((row) => row.slug);
}
