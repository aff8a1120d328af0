import type { Kysely } from "kysely";
import type { Database, Project } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { SLUG_PATTERN } from "~/modules/projects/project-form";
import { findProjectByFormerSlug } from "./slug-history.server";

/** A pitch is viewable by everyone once published; a draft only by its owner. */
function viewableBy(project: Pick<Project, "status" | "owner_id">, viewerId: string | null): boolean {
  return project.status === "published" || project.owner_id === viewerId;
}

/**
 * The project behind a pitch page: published projects for everyone, a draft only for its owner.
 * Anyone else gets nothing, exactly as for a slug that does not exist.
 */
export async function findViewableProjectBySlug(
  db: Kysely<Database>,
  slug: string,
  viewerId: string | null,
): Promise<Project | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  const project = await db.selectFrom("projects").selectAll().where("slug", "=", slug).executeTakeFirst();
  return project && viewableBy(project, viewerId) ? project : null;
}

/**
 * The project a visitor's form posted to a pitch page acts on, found by the page's slug in one indexed lookup:
 * the same rule and the same nothing for anyone else as `findViewableProjectBySlug`.
 */
export async function findViewableProjectRefBySlug(
  db: Kysely<Database>,
  slug: string,
  viewerId: string | null,
): Promise<{ id: string; slug: string } | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  // A form posted to a slug the project had before (decision 63) acts on the project; its answers name the current slug.
  const project =
    (await db.selectFrom("projects").select(["id", "slug", "status", "owner_id"]).where("slug", "=", slug).executeTakeFirst()) ??
    (await findProjectByFormerSlug(db, slug));
  return project && viewableBy(project, viewerId) ? { id: project.id, slug: project.slug } : null;
}

/** The project a visitor acts on (intro, subscription, signal): it must exist and be viewable by them. */
export async function requireViewableProject(
  db: Kysely<Database>,
  projectId: string,
  viewerId: string | null,
): Promise<Pick<Project, "id" | "title" | "slug" | "owner_id" | "question_prompt" | "question_options" | "question_required">> {
  // The qualifying question comes along: the visitor forms check their answer against it (decision 59).
  const project = await db
    .selectFrom("projects")
    .select(["id", "title", "slug", "owner_id", "status", "question_prompt", "question_options", "question_required"])
    .where("id", "=", projectId)
    .executeTakeFirst();
  if (!project || !viewableBy(project, viewerId)) {
    throw new DomainError("not_found", "Project not found. This project doesn't exist or has been removed.");
  }
  return project;
}

/** Marks the public page as changed, inside the transaction that changed it. */
export async function bumpContentVersion(db: Kysely<Database>, projectId: string): Promise<void> {
  await db
    .updateTable("projects")
    .set((eb) => ({ content_version: eb("content_version", "+", 1) }))
    .where("id", "=", projectId)
    .execute();
}

/**
 * Where a project's founder alerts go: the owner's account e-mail. None for an address under the reserved
 * `.invalid` domain (RFC 2606), which no mail server can deliver to: the seeded demo founder has one.
 */
export async function ownerEmailOf(db: Kysely<Database>, ownerId: string): Promise<string | null> {
  const owner = await db.selectFrom("users").select("email").where("id", "=", ownerId).executeTakeFirst();
  if (!owner || owner.email.toLowerCase().endsWith(".invalid")) return null;
  return owner.email;
}
