import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { isInvitationTokenShape } from "~/modules/http/id-shape";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { hashSingleUseToken, newSingleUseToken } from "~/modules/tokens/single-use-token.server";
import { INVITATION_NOT_FOUND_MESSAGE } from "./team.server";

export type InvitationLink = { email: string; joinUrl: string };

/**
 * 'Copy invite link' (decision 85): the owner gets a working link for an open invitation, to send by any messenger.
 * Only the token's hash is stored, so a fresh token is issued for the same invitation (same address, role and
 * expiry) and the link made before, the mailed one included, stops working: one link per invitation works.
 */
export async function issueInvitationLink(
  db: Kysely<Database>,
  links: MailLinks,
  userId: string,
  projectId: string,
  invitationId: string,
  now = new Date(),
): Promise<InvitationLink> {
  const access = await requireProjectRole(db, userId, projectId, "team");
  const { token, hash } = newSingleUseToken();
  const reissued = await db
    .updateTable("team_invitations")
    .set({ token_hash: hash })
    .where("id", "=", invitationId)
    .where("project_id", "=", access.id)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .returning("email")
    .executeTakeFirst();
  if (!reissued) throw new DomainError("not_found", INVITATION_NOT_FOUND_MESSAGE);
  return { email: reissued.email, joinUrl: links.teamJoinUrl(token) };
}

/**
 * The project a team link is for, when the signed-in user is already on its team (the owner or a member): someone
 * who opens a link they already used is taken to the project rather than told it was used. Null otherwise.
 */
export async function teamProjectOfLink(db: Kysely<Database>, userId: string, token: string): Promise<string | null> {
  if (!isInvitationTokenShape(token)) return null;
  const row = await db
    .selectFrom("team_invitations")
    .innerJoin("projects", "projects.id", "team_invitations.project_id")
    .leftJoin("project_members", (join) => join.onRef("project_members.project_id", "=", "projects.id").on("project_members.user_id", "=", userId))
    .select(["projects.id", "projects.owner_id", "project_members.user_id"])
    .where("team_invitations.token_hash", "=", hashSingleUseToken(token))
    .executeTakeFirst();
  if (!row) return null;
  return row.owner_id === userId || row.user_id === userId ? row.id : null;
}
