import type { UnsubscribeTokens } from "~/modules/contacts/unsubscribe-token.server";

/** The absolute links e-mails carry, built from PUBLIC_URL. */
export type MailLinks = {
  pitchUrl(slug: string): string;
  unsubscribeUrl(contactId: string): string;
  analyticsUrl(projectId: string): string;
  editUrl(projectId: string): string;
};

export function createMailLinks(publicUrl: string, tokens: UnsubscribeTokens, clock: () => Date = () => new Date()): MailLinks {
  return {
    pitchUrl: (slug) => `${publicUrl}/pitch/${encodeURIComponent(slug)}`,
    unsubscribeUrl: (contactId) => `${publicUrl}/unsubscribe?token=${encodeURIComponent(tokens.sign(contactId, clock()))}`,
    analyticsUrl: (projectId) => `${publicUrl}/project/${encodeURIComponent(projectId)}/analytics`,
    editUrl: (projectId) => `${publicUrl}/project/${encodeURIComponent(projectId)}/edit`,
  };
}
