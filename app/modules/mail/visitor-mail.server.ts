import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { takeFromAllowance, VISITOR_MAIL_CAPS } from "~/modules/rate-limit/rate-limit.server";
import { enqueueMail, type OutgoingMail } from "./outbox.server";

/**
 * Queues a mail a visitor's form sends to the address they typed, inside the caller's transaction, unless that
 * address has had its share (decision "visitor-mail-caps"): per project per hour and across projects per day.
 * Resolves the queued mail's id, or null when it was not queued. Both counters are taken, so one project's flood also counts across projects.
 * The address is the one the form's schema gave (trimmed and lower-case), so one inbox is one counter.
 */
export async function enqueueVisitorMail(db: Kysely<Database>, projectId: string, mail: OutgoingMail, now = new Date()): Promise<string | null> {
  const withinProject = await takeFromAllowance(db, `mail:recipient:${projectId}:${mail.to}`, VISITOR_MAIL_CAPS.perProject, now.getTime());
  const withinDay = await takeFromAllowance(db, `mail:recipient:${mail.to}`, VISITOR_MAIL_CAPS.acrossProjects, now.getTime());
  if (!withinProject || !withinDay) return null;
  return enqueueMail(db, mail, now);
}
