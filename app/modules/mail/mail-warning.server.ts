import type { AppServices } from "~/services.server";
import { mailSetupWarning } from "./mail-setup";

/**
 * The founder screens' warning that mail does not reach anybody, or waits: its title and message
 * only, which name the mail folder and the sender, never the SMTP address or its credentials.
 */
export function mailWarningForFounders(services: Pick<AppServices, "config" | "mail">): { title: string; message: string } | null {
  const { config, mail } = services;
  const warning = mailSetupWarning({
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    mailFolder: config.mailDir,
    loginRefusedSince: mail.lastAuthFailure()?.since ?? null,
  });
  return warning && { title: warning.title, message: warning.message };
}
