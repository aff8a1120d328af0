import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { AppConfig, SignupPolicy } from "~/config.server";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { isInvitationTokenShape } from "~/modules/http/id-shape";
import { consumeRateLimit, dailyLimit } from "~/modules/rate-limit/rate-limit.server";
import { readTeamInvitation } from "~/modules/team/team.server";
import { hashSingleUseToken, newSingleUseToken } from "~/modules/tokens/single-use-token.server";
import { DAY_MS } from "~/modules/time/units";

/** How long an invitation link works (decision 39). */
export const INVITATION_DAYS = 7;

/** A founder invites a co-founder or two, not a mailing list. */
export const INVITATION_LIMIT = dailyLimit(20, "You made many invitation links today. Please try again tomorrow.");

export const INVITATION_ENDED_MESSAGE = "This invitation link was already used or has expired. Ask the founder who sent it for a new one.";
export const INVITATION_REQUIRED_MESSAGE = "Sign-up on this site is by invitation only. Open the invitation link a founder sent you.";
export const SIGNUP_CLOSED_MESSAGE = "Sign-up is closed on this site. Only existing founders can sign in.";
export const TEAM_INVITATION_ADDRESS_MESSAGE = "Your team invitation is for another e-mail address. Create the account with the address it was sent to.";

export type NewInvitation = { token: string; expiresAt: string };

/** What a link is: one that still admits a sign-up, one that ended (used, expired), or nothing of ours. */
export type InvitationCheck = "valid" | "ended" | "unknown";

/** An invitation made by a signed-in founder: 256 random bits, base64url; the token exists only in the link shown once. */
export async function createInvitation(db: Kysely<Database>, founderId: string, now = new Date()): Promise<NewInvitation> {
  await consumeRateLimit(db, `invitation:user:${founderId}`, INVITATION_LIMIT, now.getTime());
  const { token, hash } = newSingleUseToken();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * DAY_MS).toISOString();
  await db
    .insertInto("signup_invitations")
    .values({ id: crypto.randomUUID(), token_hash: hash, invited_by: founderId, created_at: now.toISOString(), expires_at: expiresAt, used_at: null, used_by: null })
    .execute();
  return { token, expiresAt };
}

export function invitationPath(token: string): string {
  return `/auth?mode=signup&invitation=${encodeURIComponent(token)}`;
}

/** My Projects' 'Invite a founder': only while sign-up is by invitation; the link is shown to its maker once. */
export async function createInvitationLink(db: Kysely<Database>, config: Pick<AppConfig, "signup" | "publicUrl">, founderId: string, now = new Date()) {
  if (config.signup !== "invite") throw new DomainError("forbidden", "Invitation links are used only when sign-up on this site is by invitation.");
  const invitation = await createInvitation(db, founderId, now);
  return {
    message: `Invitation link ready: send it to one person. It makes one account and works for ${INVITATION_DAYS} days; it is shown only now.`,
    invitationUrl: `${config.publicUrl}${invitationPath(invitation.token)}`,
  };
}

/** Whether `token` would admit a sign-up at `now` (for the Sign Up tab: the form, or why there is none). */
export async function checkInvitation(db: Kysely<Database>, token: string | null | undefined, now = new Date()): Promise<InvitationCheck> {
  if (!isInvitationTokenShape(token)) return "unknown";
  const row = await db.selectFrom("signup_invitations").select(["used_at", "expires_at"]).where("token_hash", "=", hashSingleUseToken(token)).executeTakeFirst();
  if (!row) return "unknown";
  return row.used_at === null && row.expires_at > now.toISOString() ? "valid" : "ended";
}

/**
 * Takes the invitation for one sign-up, atomically: of two sign-ups with the same link, one gets it. Resolves the
 * invitation's id; throws a `forbidden` DomainError for a link that is unknown, used or expired.
 */
export async function claimInvitation(db: Kysely<Database>, token: string, now = new Date()): Promise<string> {
  if (!isInvitationTokenShape(token)) throw new DomainError("forbidden", token ? INVITATION_ENDED_MESSAGE : INVITATION_REQUIRED_MESSAGE);
  const claimed = await db
    .updateTable("signup_invitations")
    .set({ used_at: now.toISOString() })
    .where("token_hash", "=", hashSingleUseToken(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .returning("id")
    .executeTakeFirst();
  if (!claimed) throw new DomainError("forbidden", INVITATION_ENDED_MESSAGE);
  return claimed.id;
}

/**
 * What admits a sign-up under SIGNUP=invite: a founder's invitation link (claimed, as `claimInvitation` does), or a
 * team invitation still open, for the address it was sent to only. A team invitation is not used up here: the
 * address has one account at most, and joining the team (its own step, signed in) uses the link. Resolves the
 * claimed sign-up invitation's id, or null for a team invitation.
 */
export async function admitInvitedSignUp(db: Kysely<Database>, token: string, email: string, now = new Date()): Promise<string | null> {
  const team = isInvitationTokenShape(token) ? await readTeamInvitation(db, token, now) : null;
  if (team?.kind !== "open") return claimInvitation(db, token, now);
  if (team.email !== email.toLowerCase()) throw new DomainError("forbidden", TEAM_INVITATION_ADDRESS_MESSAGE, { email: TEAM_INVITATION_ADDRESS_MESSAGE });
  return null;
}

/** The account the claimed invitation made. */
export async function completeInvitation(db: Kysely<Database>, invitationId: string, userId: string): Promise<void> {
  await db.updateTable("signup_invitations").set({ used_by: userId }).where("id", "=", invitationId).execute();
}

/** A claimed invitation whose sign-up failed (address taken, limiter) works again for the person it was meant for. */
export async function releaseInvitation(db: Kysely<Database>, invitationId: string): Promise<void> {
  await db.updateTable("signup_invitations").set({ used_at: null }).where("id", "=", invitationId).where("used_by", "is", null).execute();
}

/**
 * What the Sign Up tab offers under the operator's SIGNUP setting: the form (with the invitation it carries), or why
 * not. A team invitation still open is carried under SIGNUP=open too: the new account is then signed in on the join
 * page (`signInToJoinTeam`).
 */
export async function signUpAccess(db: Kysely<Database>, policy: SignupPolicy, invitation: string | null) {
  if (policy === "closed") return { form: false, invitation: "", notice: SIGNUP_CLOSED_MESSAGE } as const;
  const team = isInvitationTokenShape(invitation) ? await readTeamInvitation(db, invitation) : null;
  if (team?.kind === "open") {
    return { form: true, invitation: invitation ?? "", notice: `You are invited to join ${team.projectTitle}. Create your account with ${team.email}, then join the team.` } as const;
  }
  if (policy === "open") return { form: true, invitation: "", notice: null } as const;
  const check = await checkInvitation(db, invitation);
  if (check === "valid") return { form: true, invitation: invitation ?? "", notice: "You have an invitation. Create your account below." } as const;
  return { form: false, invitation: "", notice: check === "ended" ? INVITATION_ENDED_MESSAGE : INVITATION_REQUIRED_MESSAGE } as const;
}

/** The address a team invitation still open was sent to, filled in on Sign In and Sign Up; empty for any other link. */
export async function invitedAddress(db: Kysely<Database>, invitation: string | null): Promise<string> {
  const team = isInvitationTokenShape(invitation) ? await readTeamInvitation(db, invitation) : null;
  return team?.kind === "open" ? team.email : "";
}
