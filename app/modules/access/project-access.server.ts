import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database, Project } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import { roleAllows, roleRefusedMessage, type ProjectAction, type ProjectRole } from "./roles";

/** The one answer for a project that does not exist or is someone else's. */
export const NOT_FOUND_OR_DENIED = "Project not found or access denied";

export type ProjectAccess = Pick<Project, "id" | "slug" | "title" | "status" | "owner_id"> & { role: ProjectRole };

/**
 * The project, for a signed-in user whose role on it allows `action` (decision 61). Someone not on the team learns
 * nothing, not even that it exists (one answer for both); a member whose role does not allow it gets a
 * 403 that names their role.
 */
export async function requireProjectRole(db: Kysely<Database>, userId: string, projectId: string, action: ProjectAction): Promise<ProjectAccess> {
  const access = await findProjectAccess(db, userId, projectId);
  if (!access) throw new DomainError("not_found", NOT_FOUND_OR_DENIED);
  if (!roleAllows(access.role, action)) throw new DomainError("forbidden", roleRefusedMessage(access.role));
  return access;
}

/** The user's role on the project, or null when they are not on its team. */
export async function findProjectAccess(db: Kysely<Database>, userId: string, projectId: string): Promise<ProjectAccess | null> {
  if (!isRecordId(projectId)) return null;
  const row = await db
    .selectFrom("projects")
    .leftJoin("project_members", (join) => join.onRef("project_members.project_id", "=", "projects.id").on("project_members.user_id", "=", userId))
    .select(["projects.id", "projects.slug", "projects.title", "projects.status", "projects.owner_id", "project_members.role"])
    .where("projects.id", "=", projectId)
    .executeTakeFirst();
  if (!row) return null;
  const role: ProjectRole | null = row.owner_id === userId ? "owner" : row.role;
  if (!role) return null;
  return { id: row.id, slug: row.slug, title: row.title, status: row.status, owner_id: row.owner_id, role };
}

/** A where-clause for queries over `projects`: the projects whose team `userId` is on, as owner or member. */
export function onTeamOf(userId: string) {
  return (eb: ExpressionBuilder<Database, "projects">) =>
    eb.or([
      eb("projects.owner_id", "=", userId),
      eb.exists(eb.selectFrom("project_members").select("project_members.user_id").whereRef("project_members.project_id", "=", "projects.id").where("project_members.user_id", "=", userId)),
    ]);
}

/** The user's role on each of the given projects (those they own or are a member of). */
export async function rolesOn(db: Kysely<Database>, userId: string, projects: { id: string; owner_id: string }[]): Promise<Map<string, ProjectRole>> {
  const roles = new Map<string, ProjectRole>();
  for (const project of projects) if (project.owner_id === userId) roles.set(project.id, "owner");
  const others = projects.filter((project) => project.owner_id !== userId).map((project) => project.id);
  if (others.length) {
    const rows = await db.selectFrom("project_members").select(["project_id", "role"]).where("user_id", "=", userId).where("project_id", "in", others).execute();
    for (const row of rows) roles.set(row.project_id, row.role);
  }
  return roles;
}
