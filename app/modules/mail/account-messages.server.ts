import { PRODUCT_NAME } from "~/product";
import type { OutgoingMail } from "./outbox.server";
import { compose } from "./letter.server";

/**
 * The e-mails about an account: confirming its address, resetting its password, an invitation to a team.
 */
export type TeamInvitationMailInput = { to: string; inviterName: string; projectTitle: string; roleLabel: string; joinUrl: string; days: number };

/** To someone a founder invited to a project's team (decision 61): who, which project, which role, the one link. */
export function teamInvitationMail(input: TeamInvitationMailInput): OutgoingMail {
  const { text, html } = compose({
    heading: `Join ${input.projectTitle}`,
    blocks: [
      { kind: "p", text: `${input.inviterName} invited you to the team of ${input.projectTitle} on ${PRODUCT_NAME}, as ${input.roleLabel}.` },
      { kind: "link", label: "Join the team", url: input.joinUrl },
      { kind: "p", text: `The link works once, for ${input.days} days, for this address only: sign in or sign up with it to join.` },
      { kind: "p", text: "If you do not know who sent it, ignore this e-mail: nothing happens without you." },
    ],
    footer: [{ kind: "p", text: `You received this because ${input.inviterName} entered this address on ${PRODUCT_NAME}.` }],
  });
  return { kind: "team-invitation", to: input.to, subject: `${input.inviterName} invited you to ${input.projectTitle}`, text, html };
}

export type AccountConfirmationInput = { to: string; name: string; confirmUrl: string; expiresInHours: number };

/**
 * To a new account's address (decision 83): the one link that confirms it. Until it is opened the app mails this
 * address nothing but this link and a password reset, so alerts and reports never go to an address nobody proved.
 */
export function accountConfirmationMail(input: AccountConfirmationInput): OutgoingMail {
  const { text, html } = compose({
    heading: "Confirm your e-mail address",
    blocks: [
      { kind: "p", text: input.name ? `Hi ${input.name},` : "Hi," },
      { kind: "p", text: `To get lead alerts and reports from ${PRODUCT_NAME} at this address, confirm it:` },
      { kind: "link", label: "Confirm my address", url: input.confirmUrl },
      { kind: "p", text: `The link works for ${input.expiresInHours} hours. A new one is a click away on any of your ${PRODUCT_NAME} screens.` },
      { kind: "p", text: "If you did not make an account, ignore this e-mail: we send this address nothing more." },
    ],
    footer: [{ kind: "p", text: `You received this because an account was made with this address on ${PRODUCT_NAME}.` }],
  });
  return { kind: "account-confirmation", to: input.to, subject: `Confirm your ${PRODUCT_NAME} e-mail address`, text, html };
}

export type PasswordResetInput = { to: string; name: string; resetUrl: string; expiresInMinutes: number };

/**
 * To a founder who asked for a new password: the one link, how long it works, that it works once and
 * signs them out everywhere, and what to do when they did not ask. Nothing else: no tracking, no other links.
 */
export function passwordResetMail(input: PasswordResetInput): OutgoingMail {
  const { text, html } = compose({
    heading: "Reset your password",
    blocks: [
      { kind: "p", text: input.name ? `Hi ${input.name},` : "Hi," },
      { kind: "p", text: `Someone asked to reset the password of your ${PRODUCT_NAME} account. To choose a new one, open this link:` },
      { kind: "link", label: "Choose a new password", url: input.resetUrl },
      {
        kind: "p",
        text: `The link works once, for ${input.expiresInMinutes} minutes. Setting a new password signs your account out on every device.`,
      },
      { kind: "p", text: "If you did not ask for this, ignore this e-mail: your password stays as it is." },
    ],
    footer: [{ kind: "p", text: `You received this because a password reset was requested for this address on ${PRODUCT_NAME}.` }],
  });
  return { kind: "password-reset", to: input.to, subject: `Reset your ${PRODUCT_NAME} password`, text, html };
}
