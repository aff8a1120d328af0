import { z } from "zod/mini";
import { emailAddress } from "~/modules/forms/fields";
import { MEMBER_ROLES } from "~/modules/access/roles";

/** 'Invite to the team' (decision 61): an address and one of the member roles; the owner is never invited. */
export const teamInvitationSchema = z.object({
  email: emailAddress({ invalid: "Invalid email address", tooLong: "Email must be less than 255 characters" }),
  role: z.enum(MEMBER_ROLES, "Choose a role"),
});

/** 'Change role' on a member's row. */
export const memberRoleSchema = z.object({
  userId: z.string().check(z.minLength(1), z.maxLength(64)),
  role: z.enum(MEMBER_ROLES, "Choose a role"),
});

export type TeamInvitationInput = z.infer<typeof teamInvitationSchema>;
export type MemberRoleInput = z.infer<typeof memberRoleSchema>;

/** A member's row: remove them, or hand them ownership. */
export const memberSchema = z.object({ userId: z.string().check(z.minLength(1), z.maxLength(64)) });

/** An open invitation's row: withdraw it. */
export const revokeInvitationSchema = z.object({ invitationId: z.string().check(z.minLength(1), z.maxLength(64)) });

export type MemberInput = z.infer<typeof memberSchema>;
export type RevokeInvitationInput = z.infer<typeof revokeInvitationSchema>;

/** Why an invitation link admits no one: each a clear message, and nothing is granted. */
export const INVITATION_PROBLEMS = {
  unknown: "This invitation link does not work. Check that it was copied whole, or ask for a new one.",
  expired: "This invitation has expired. Ask the founder who sent it for a new one.",
  revoked: "This invitation was withdrawn by the project's owner.",
  used: "This invitation was already used.",
  otherAddress: "This invitation is for another e-mail address. Sign in with the address it was sent to.",
} as const;

export type InvitationProblem = keyof typeof INVITATION_PROBLEMS;

export const LEFTOVER_KINDS = ["webhook", "slack", "booth", "push"] as const;

/** 'Keep' or 'Delete' on one thing a removed member had set up (decision 78). */
export const leftoverSchema = z.object({
  kind: z.enum(LEFTOVER_KINDS),
  itemId: z.string().check(z.minLength(1), z.maxLength(64)),
  decision: z.enum(["keep", "delete"]),
});

export type LeftoverInput = z.infer<typeof leftoverSchema>;
