import type { AppServices } from "~/services.server";
import { projectTitleOfContact, unsubscribeContact } from "./unsubscribe.server";

export type TokenUnsubscribeResult = { done: true; projectTitle?: string } | { done: false; title: string; message: string };
/** An opened link, before anything changes: which project it unsubscribes from, or why it cannot. */
export type UnsubscribeLinkCheck = { valid: true; projectTitle: string | null } | { valid: false; title: string; message: string };

export const INVALID_LINK = {
  title: "Invalid unsubscribe link",
  message: "This unsubscribe link is not valid: it may have been cut off or changed. Nothing was changed. Enter your e-mail below to unsubscribe.",
};
export const EXPIRED_LINK = {
  title: "Expired unsubscribe link",
  message: "This unsubscribe link has expired. Nothing was changed. Enter your e-mail below to unsubscribe.",
};

/** Why a mailed confirmation link (decision 37) does not work; nothing changed in any case. */
export const CONFIRMATION_LINK_FAILURES = {
  unknown: {
    title: "Invalid confirmation link",
    message: "This confirmation link is not valid: it may have been cut off or changed. Nothing was changed. Enter your e-mail below to get a new one.",
  },
  expired: { title: "Expired confirmation link", message: "This confirmation link has expired. Nothing was changed. Enter your e-mail below to get a new one." },
  used: { title: "Confirmation link already used", message: "This confirmation link has already been used. Nothing more was changed." },
} as const;

/**
 * Reads a signed unsubscribe link opened in a browser (GET) and changes nothing: mail scanners fetch links, so the
 * page asks first and unsubscribes only when its button posts the token back.
 */
export async function checkUnsubscribeLink(services: Pick<AppServices, "database" | "unsubscribeTokens" | "logger">, token: string): Promise<UnsubscribeLinkCheck> {
  const check = services.unsubscribeTokens.verify(token);
  if (!check.ok) {
    services.logger.info({ reason: check.reason }, "unsubscribe link refused");
    return { valid: false, ...(check.reason === "expired" ? EXPIRED_LINK : INVALID_LINK) };
  }
  return { valid: true, projectTitle: await projectTitleOfContact(services.database.db, check.contactId) };
}

/**
 * Follows a signed unsubscribe link (the page's confirm button or the RFC 8058 one-click POST). A tampered or expired
 * token changes nothing; a valid one unsubscribes that contact's address from the project's e-mail.
 */
export async function unsubscribeByToken(services: Pick<AppServices, "database" | "unsubscribeTokens" | "logger">, token: string): Promise<TokenUnsubscribeResult> {
  const check = services.unsubscribeTokens.verify(token);
  if (!check.ok) {
    services.logger.info({ reason: check.reason }, "unsubscribe link refused");
    return { done: false, ...(check.reason === "expired" ? EXPIRED_LINK : INVALID_LINK) };
  }
  const outcome = await unsubscribeContact(services.database.db, check.contactId);
  services.logger.info({ changed: outcome?.changed ?? 0 }, "unsubscribe by link");
  return outcome ? { done: true, projectTitle: outcome.projectTitle } : { done: true };
}
