import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { PageDoor, PitchProject } from "./page-door.server";

/**
 * Who a page load is checked against (decision 15): the project and the people whose devices are its team's, the
 * owner and every member. A device that names no one (no session, no team-device cookie: nearly every visitor)
 * costs no query; one that does is checked against the team as it is now, so a member who joined a minute ago is
 * not a visitor either.
 */
export async function pitchTeam(
  db: Kysely<Database>,
  door: PageDoor,
  project: { projectId: string; ownerId: string },
  sessionUserId: string | null,
  cookieHeader: string | undefined | null,
): Promise<PitchProject> {
  const named = [...new Set([...(sessionUserId ? [sessionUserId] : []), ...door.teamMembersOf(cookieHeader)])];
  const others = named.filter((id) => id !== project.ownerId);
  if (others.length === 0) return { id: project.projectId, teamIds: [project.ownerId] };
  const members = await db
    .selectFrom("project_members")
    .select("user_id")
    .where("project_id", "=", project.projectId)
    .where("user_id", "in", others)
    .execute();
  return { id: project.projectId, teamIds: [project.ownerId, ...members.map((row) => row.user_id)] };
}

/** Whether the browser is the team's for this project: signed in as, or marked by, its owner or a member. */
export async function isTeamDevice(
  db: Kysely<Database>,
  door: PageDoor,
  projectId: string,
  sessionUserId: string | null,
  cookieHeader: string | undefined | null,
): Promise<boolean> {
  const project = await db.selectFrom("projects").select("owner_id").where("id", "=", projectId).executeTakeFirst();
  if (!project) return false;
  const team = await pitchTeam(db, door, { projectId, ownerId: project.owner_id }, sessionUserId, cookieHeader);
  return door.isTeams(team, sessionUserId, cookieHeader);
}
