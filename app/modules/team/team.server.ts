import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, MemberRole } from "~/db/schema";
import { isUniqueViolation } from "~/db/normalize.server";
import { DomainError } from "~/modules/errors.server";
import { isInvitationTokenShape } from "~/modules/http/id-shape";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { teamInvitationMail } from "~/modules/mail/account-messages.server";
import { enqueueMail } from "~/modules/mail/outbox.server";
import { consumeRateLimit, dailyLimit } from "~/modules/rate-limit/rate-limit.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { ROLE_LABELS, type ProjectRole } from "~/modules/access/roles";
import type { Logger } from "~/modules/logging/logger.server";
import { announce, type ProjectEvents } from "~/modules/realtime/project-events.server";
import { INVITATION_PROBLEMS, type InvitationProblem, type MemberRoleInput, type TeamInvitationInput } from "./team-forms";
import { disableWhatMemberSetUp, loadTeamSetups, type TeamSetups } from "./team-setups.server";
import { returnCodesOnLeaving } from "~/modules/qr/qr-code-moves.server";
import { DAY_MS } from "~/modules/time/units";
import { hashSingleUseToken, newSingleUseToken } from "~/modules/tokens/single-use-token.server";

/** How long a team invitation works. */
export const TEAM_INVITATION_DAYS = 7;

/** An owner adds a co-founder and a few staff, not a mailing list. */
export const TEAM_INVITATION_LIMIT = dailyLimit(30, "You sent many team invitations today. Please try again tomorrow.");

export const ALREADY_ON_TEAM_MESSAGE = "This person is already on the team.";
export const MEMBER_NOT_FOUND_MESSAGE = "This person is not on the team.";
export const INVITATION_NOT_FOUND_MESSAGE = "Invitation not found.";
export const OWNER_CANNOT_LEAVE_MESSAGE = "The owner cannot leave or be removed. Hand ownership to a co-founder first.";
export const NEW_OWNER_MESSAGE = "Ownership can only go to a co-founder on the team.";
export const INVITATION_CROSSED_MESSAGE = "An invitation to this address was sent a moment ago. Its link is the one that works.";

export type TeamMember = { userId: string; name: string; email: string; role: ProjectRole; since: string };
export type PendingInvitation = { id: string; email: string; role: MemberRole; expiresAt: string };
export type TeamPage = {
  project: { id: string; title: string; role: ProjectRole };
  /** The owner first, then members by when they joined. */
  members: TeamMember[];
  /** Invitations not yet used, withdrawn or expired; only the owner sees them. */
  invitations: PendingInvitation[];
  /** What is set up for the project and who added it (roles that see the settings), and what removed members left (the owner). */
  setups: TeamSetups;
};

/** The team as every member sees it; the owner also sees the invitations still open. */
export async function loadTeam(db: Kysely<Database>, userId: string, projectId: string, now = new Date()): Promise<TeamPage> {
  const access = await requireProjectRole(db, userId, projectId, "view");
  const [owner, members, invitations, setups] = await Promise.all([
    db.selectFrom("users").select(["id", "name", "email", "created_at"]).where("id", "=", access.owner_id).executeTakeFirstOrThrow(),
    db
      .selectFrom("project_members")
      .innerJoin("users", "users.id", "project_members.user_id")
      .select(["users.id", "users.name", "users.email", "project_members.role", "project_members.created_at"])
      .where("project_members.project_id", "=", access.id)
      .orderBy("project_members.created_at")
      .orderBy("users.id")
      .execute(),
    access.role === "owner"
      ? db
          .selectFrom("team_invitations")
          .select(["id", "email", "role", "expires_at"])
          .where("project_id", "=", access.id)
          .where("accepted_at", "is", null)
          .where("revoked_at", "is", null)
          .where("expires_at", ">", now.toISOString())
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .execute()
      : [],
    loadTeamSetups(db, access, now),
  ]);
  return {
    project: { id: access.id, title: access.title, role: access.role },
    members: [
      { userId: owner.id, name: owner.name, email: owner.email, role: "owner", since: String(owner.created_at) },
      ...members.map((member) => ({ userId: member.id, name: member.name, email: member.email, role: member.role, since: String(member.created_at) })),
    ],
    invitations: invitations.map((invitation) => ({ id: invitation.id, email: invitation.email, role: invitation.role, expiresAt: String(invitation.expires_at) })),
    setups,
  };
}

async function isOnTeam(db: Kysely<Database>, projectId: string, ownerId: string, email: string): Promise<boolean> {
  const user = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (!user) return false;
  if (user.id === ownerId) return true;
  const member = await db.selectFrom("project_members").select("user_id").where("project_id", "=", projectId).where("user_id", "=", user.id).executeTakeFirst();
  return Boolean(member);
}

/**
 * Invites an address to the team with a role: a single-use link valid 7 days, mailed through the outbox in the same
 * transaction as the invitation (so it exists exactly when the mail does). An open invitation to the same address
 * is withdrawn: the newest link is the one that works. An address has one open invitation per project (a unique
 * index): of invitations sent at the same moment, the first to commit stays and the others are refused.
 */
export async function inviteToTeam(
  db: Kysely<Database>,
  links: MailLinks,
  userId: string,
  projectId: string,
  input: TeamInvitationInput,
  now = new Date(),
): Promise<PendingInvitation> {
  const access = await requireProjectRole(db, userId, projectId, "team");
  if (await isOnTeam(db, access.id, access.owner_id, input.email)) throw new DomainError("conflict", ALREADY_ON_TEAM_MESSAGE, { email: ALREADY_ON_TEAM_MESSAGE });
  await consumeRateLimit(db, `team-invitation:user:${userId}`, TEAM_INVITATION_LIMIT, now.getTime());
  const inviter = await db.selectFrom("users").select(["name", "email"]).where("id", "=", userId).executeTakeFirstOrThrow();
  const { token, hash } = newSingleUseToken();
  const invitation = { id: crypto.randomUUID(), email: input.email, role: input.role, expiresAt: new Date(now.getTime() + TEAM_INVITATION_DAYS * DAY_MS).toISOString() };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("team_invitations")
      .set({ revoked_at: now.toISOString() })
      .where("project_id", "=", access.id)
      .where("email", "=", input.email)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .execute();
    await trx
      .insertInto("team_invitations")
      .values({
        id: invitation.id,
        project_id: access.id,
        email: invitation.email,
        role: invitation.role,
        token_hash: hash,
        invited_by: userId,
        created_at: now.toISOString(),
        expires_at: invitation.expiresAt,
        accepted_at: null,
        accepted_by: null,
        revoked_at: null,
      })
      .execute()
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new DomainError("conflict", INVITATION_CROSSED_MESSAGE, { email: INVITATION_CROSSED_MESSAGE });
        throw error;
      });
    const mail = teamInvitationMail({
      to: input.email,
      inviterName: inviter.name || inviter.email,
      projectTitle: access.title,
      roleLabel: ROLE_LABELS[input.role],
      joinUrl: links.teamJoinUrl(token),
      days: TEAM_INVITATION_DAYS,
    });
    await enqueueMail(trx, mail, now);
  });
  return invitation;
}

/** Withdraws an open invitation: its link then admits no one. */
export async function revokeTeamInvitation(db: Kysely<Database>, userId: string, projectId: string, invitationId: string, now = new Date()): Promise<void> {
  const access = await requireProjectRole(db, userId, projectId, "team");
  const revoked = await db
    .updateTable("team_invitations")
    .set({ revoked_at: now.toISOString() })
    .where("id", "=", invitationId)
    .where("project_id", "=", access.id)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (Number(revoked.numUpdatedRows) === 0) throw new DomainError("not_found", INVITATION_NOT_FOUND_MESSAGE);
}

/** Gives a member another role (never 'owner': ownership is handed on with `transferOwnership`). */
export async function changeMemberRole(db: Kysely<Database>, userId: string, projectId: string, input: MemberRoleInput): Promise<void> {
  const access = await requireProjectRole(db, userId, projectId, "team");
  if (input.userId === access.owner_id) throw new DomainError("invalid_input", OWNER_CANNOT_LEAVE_MESSAGE);
  const updated = await db.updateTable("project_members").set({ role: input.role }).where("project_id", "=", access.id).where("user_id", "=", input.userId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new DomainError("not_found", MEMBER_NOT_FOUND_MESSAGE);
}

export type TeamDeps = { db: Kysely<Database>; events: Pick<ProjectEvents, "publish">; logger: Logger };

/** The owner removes a member; the owner cannot be removed (there is always exactly one). */
export async function removeMember(deps: TeamDeps, userId: string, projectId: string, memberId: string, now = new Date()): Promise<void> {
  const access = await requireProjectRole(deps.db, userId, projectId, "team");
  if (memberId === access.owner_id) throw new DomainError("invalid_input", OWNER_CANNOT_LEAVE_MESSAGE);
  await deleteMembership(deps, access.id, memberId, now);
}

/** A member leaves the project; the owner cannot (they hand ownership on first). */
export async function leaveProject(deps: TeamDeps, userId: string, projectId: string, now = new Date()): Promise<void> {
  const access = await requireProjectRole(deps.db, userId, projectId, "view");
  if (access.role === "owner") throw new DomainError("invalid_input", OWNER_CANNOT_LEAVE_MESSAGE);
  await deleteMembership(deps, access.id, userId, now);
}

/**
 * A member's membership goes with their own alert settings for the project, and the invitations still open to
 * their address are withdrawn: a spare link made before they left does not bring them back. What they set up is
 * disabled in the same transaction and listed for the owner (`disableWhatMemberSetUp`); open booth screens of their
 * links are told at once. The project's printed codes that open a project of theirs come back to it (decision 79).
 */
async function deleteMembership(deps: TeamDeps, projectId: string, memberId: string, now: Date): Promise<void> {
  const disabled = await deps.db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom("project_members").where("project_id", "=", projectId).where("user_id", "=", memberId).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw new DomainError("not_found", MEMBER_NOT_FOUND_MESSAGE);
    await trx.deleteFrom("member_alert_settings").where("project_id", "=", projectId).where("user_id", "=", memberId).execute();
    const member = await trx.selectFrom("users").select("email").where("id", "=", memberId).executeTakeFirstOrThrow();
    await trx
      .updateTable("team_invitations")
      .set({ revoked_at: now.toISOString() })
      .where("project_id", "=", projectId)
      .where("email", "=", member.email.toLowerCase())
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .execute();
    await returnCodesOnLeaving(trx, projectId, memberId);
    return disableWhatMemberSetUp(trx, projectId, memberId, now);
  });
  if (disabled.boothLinks > 0) await announce(deps.events, deps.logger, { projectId, kind: "booth" });
}

/**
 * Hands the project to a co-founder: they become its one owner and the former owner a co-founder, in one
 * transaction that re-checks the owner, so two transfers at once cannot leave two owners or none.
 */
export async function transferOwnership(db: Kysely<Database>, userId: string, projectId: string, newOwnerId: string, now = new Date()): Promise<void> {
  const access = await requireProjectRole(db, userId, projectId, "own");
  await db.transaction().execute(async (trx) => {
    const member = await trx
      .selectFrom("project_members")
      .select("role")
      .where("project_id", "=", access.id)
      .where("user_id", "=", newOwnerId)
      .executeTakeFirst();
    if (member?.role !== "co-founder") throw new DomainError("invalid_input", NEW_OWNER_MESSAGE);
    const moved = await trx.updateTable("projects").set({ owner_id: newOwnerId }).where("id", "=", access.id).where("owner_id", "=", userId).executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw new DomainError("conflict", NEW_OWNER_MESSAGE);
    await trx.deleteFrom("project_members").where("project_id", "=", access.id).where("user_id", "=", newOwnerId).execute();
    await trx.insertInto("project_members").values({ project_id: access.id, user_id: userId, role: "co-founder", added_by: newOwnerId, created_at: now.toISOString() }).execute();
  });
}

export type InvitationView = { kind: "open"; projectTitle: string; email: string; role: MemberRole } | { kind: "refused"; problem: InvitationProblem };

type InvitationRow = {
  id: string;
  project_id: string;
  email: string;
  role: MemberRole;
  invited_by: string;
  expires_at: string | Date;
  accepted_at: string | Date | null;
  revoked_at: string | Date | null;
  title: string;
};

async function findInvitation(db: Kysely<Database>, token: string): Promise<InvitationRow | undefined> {
  if (!isInvitationTokenShape(token)) return undefined;
  return db
    .selectFrom("team_invitations")
    .innerJoin("projects", "projects.id", "team_invitations.project_id")
    .select([
      "team_invitations.id",
      "team_invitations.project_id",
      "team_invitations.email",
      "team_invitations.role",
      "team_invitations.invited_by",
      "team_invitations.expires_at",
      "team_invitations.accepted_at",
      "team_invitations.revoked_at",
      "projects.title",
    ])
    .where("team_invitations.token_hash", "=", hashSingleUseToken(token))
    .executeTakeFirst();
}

function problemOf(row: InvitationRow | undefined, now: Date): InvitationProblem | null {
  if (!row) return "unknown";
  if (row.revoked_at) return "revoked";
  if (row.accepted_at) return "used";
  if (Date.parse(String(row.expires_at)) <= now.getTime()) return "expired";
  return null;
}

/** What the join page says about a link before anyone signs in. */
export async function readTeamInvitation(db: Kysely<Database>, token: string, now = new Date()): Promise<InvitationView> {
  const row = await findInvitation(db, token);
  const problem = problemOf(row, now);
  if (problem || !row) return { kind: "refused", problem: problem ?? "unknown" };
  return { kind: "open", projectTitle: row.title, email: row.email, role: row.role };
}

/**
 * What accepting a link did: joined with the invitation's role, or nothing for someone already on the team, whose
 * role (`keptRole`) stays as it is.
 */
export type AcceptedInvitation = { projectId: string; ownerId: string; keptRole: ProjectRole | null };

/**
 * Joins the team the link invites to, for the signed-in user whose address it was sent to: the invitation is
 * marked used in the same transaction that adds the member, and only while it is still open, so a link works once.
 * Someone already on the team keeps their role (a spare link never changes it); removing a member withdraws the
 * links open to their address, so none lets them back. Every other case is refused with its message and grants nothing.
 */
export async function acceptTeamInvitation(
  db: Kysely<Database>,
  user: { id: string; email: string },
  token: string,
  now = new Date(),
): Promise<AcceptedInvitation> {
  const row = await findInvitation(db, token);
  const problem = problemOf(row, now);
  if (problem || !row) throw new DomainError(problem === "unknown" || !row ? "not_found" : "conflict", INVITATION_PROBLEMS[problem ?? "unknown"]);
  if (row.email !== user.email.toLowerCase()) throw new DomainError("forbidden", INVITATION_PROBLEMS.otherAddress);
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("team_invitations")
      .set({ accepted_at: now.toISOString(), accepted_by: user.id })
      .where("id", "=", row.id)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) throw new DomainError("conflict", INVITATION_PROBLEMS.used);
    const project = await trx.selectFrom("projects").select("owner_id").where("id", "=", row.project_id).executeTakeFirstOrThrow();
    const joined = { projectId: row.project_id, ownerId: project.owner_id };
    if (project.owner_id === user.id) return { ...joined, keptRole: "owner" as const };
    const inserted = await trx
      .insertInto("project_members")
      .values({ project_id: row.project_id, user_id: user.id, role: row.role, added_by: row.invited_by, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(["project_id", "user_id"]).doNothing())
      .returning("user_id")
      .executeTakeFirst();
    if (inserted) {
      // Back on the team, their own devices get the project's alerts again: no longer the owner's to decide.
      await trx.deleteFrom("member_leftovers").where("project_id", "=", row.project_id).where("kind", "=", "push").where("added_by", "=", user.id).execute();
      return { ...joined, keptRole: null };
    }
    const member = await trx.selectFrom("project_members").select("role").where("project_id", "=", row.project_id).where("user_id", "=", user.id).executeTakeFirstOrThrow();
    return { ...joined, keptRole: member.role };
  });
}
