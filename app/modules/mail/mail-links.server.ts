import type { UnsubscribeTokens } from "~/modules/contacts/unsubscribe-token.server";

/** A contact's signed unsubscribe links: the page a person opens, and the List-Unsubscribe URL for RFC 8058 POSTs. */
export type UnsubscribeLinks = { pageUrl: string; oneClickUrl: string };

/** The absolute links e-mails carry, built from PUBLIC_URL. */
export type MailLinks = {
  pitchUrl(slug: string): string;
  unsubscribe(contactId: string): UnsubscribeLinks;
  /** The page that confirms an unsubscribe asked for by typing the address (decision 37). */
  unsubscribeConfirmUrl(token: string): string;
  /** The page that sends a saved list once its address confirmed, and the one that stops such mail (decision 38). */
  savedListConfirmUrl(token: string): string;
  /** The page where an address the project's team subscribed confirms it wants the updates (decision 79). */
  subscriptionConfirmUrl(token: string): string;
  savedListStopUrl(token: string): string;
  analyticsUrl(projectId: string): string;
  editUrl(projectId: string): string;
  leadsUrl(projectId: string): string;
  /** The project's Lead settings screen (question, alerts, webhooks). */
  leadSettingsUrl(projectId: string): string;
  /** One lead in the project's inbox (`?lead=`), where founder alerts send the founder. */
  leadUrl(projectId: string, leadId: string): string;
  /** The page that accepts an invitation to a project's team (decision 61). */
  teamJoinUrl(token: string): string;
};

export function createMailLinks(publicUrl: string, tokens: UnsubscribeTokens, clock: () => Date = () => new Date()): MailLinks {
  return {
    pitchUrl: (slug) => `${publicUrl}/pitch/${encodeURIComponent(slug)}`,
    unsubscribe: (contactId) => {
      const token = encodeURIComponent(tokens.sign(contactId, clock()));
      return { pageUrl: `${publicUrl}/unsubscribe?token=${token}`, oneClickUrl: `${publicUrl}/unsubscribe/one-click?token=${token}` };
    },
    unsubscribeConfirmUrl: (token) => `${publicUrl}/unsubscribe?confirm=${encodeURIComponent(token)}`,
    savedListConfirmUrl: (token) => `${publicUrl}/list-mail/confirm?token=${encodeURIComponent(token)}`,
    subscriptionConfirmUrl: (token) => `${publicUrl}/follow/confirm?token=${encodeURIComponent(token)}`,
    savedListStopUrl: (token) => `${publicUrl}/list-mail/stop?token=${encodeURIComponent(token)}`,
    analyticsUrl: (projectId) => `${publicUrl}/project/${encodeURIComponent(projectId)}/analytics`,
    editUrl: (projectId) => `${publicUrl}/project/${encodeURIComponent(projectId)}/edit`,
    leadsUrl: (projectId) => `${publicUrl}/project/${encodeURIComponent(projectId)}/leads`,
    leadSettingsUrl: (projectId) => `${publicUrl}/project/${encodeURIComponent(projectId)}/leads/settings`,
    leadUrl: (projectId, leadId) => `${publicUrl}/project/${encodeURIComponent(projectId)}/leads?lead=${encodeURIComponent(leadId)}`,
    teamJoinUrl: (token) => `${publicUrl}/team/join?token=${encodeURIComponent(token)}`,
  };
}
