import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { savedListMail } from "~/modules/mail/messages.server";
import { enqueueMail } from "~/modules/mail/outbox.server";
import { consumeRateLimit, retryAfterSeconds, SAVED_LIST_MAIL_LIMITS, takeFromAllowance, VISITOR_MAIL_CAPS } from "~/modules/rate-limit/rate-limit.server";
import type { EmailSavedListInput } from "./saved-list-form";
import { SAVED_LIST_MESSAGES } from "./saved-list-rules";

/** Who asks: the browser (its viewer id's hash, else its address and user agent) and its network address. */
export type SavedListRequester = { browserKey: string; clientAddress: string };

/**
 * 'E-mail me this list' (issue 17): one message with every saved pitch that is published, in the visitor's order,
 * written from our own data (title, one-liner, plain absolute link), queued in the outbox. Nothing else is stored:
 * no contact, no subscription, only the outbox row and the limits' counters. Over a limit, nothing is queued and
 * the visitor is told which limit. The recipient's counters are taken with the queued row, so a request refused
 * for another reason does not use up that address's allowance.
 */
export async function emailSavedList(db: Kysely<Database>, links: Pick<MailLinks, "pitchUrl">, requester: SavedListRequester, input: EmailSavedListInput): Promise<{ sent: number }> {
  const rows = await db.selectFrom("projects").select(["slug", "title", "one_liner"]).where("slug", "in", input.slugs).where("status", "=", "published").execute();
  const bySlug = new Map(rows.map((row) => [row.slug, row]));
  const pitches = [...new Set(input.slugs)].flatMap((slug) => {
    const row = bySlug.get(slug);
    return row ? [{ title: row.title, oneLiner: row.one_liner, url: links.pitchUrl(row.slug) }] : [];
  });
  if (pitches.length === 0) throw new DomainError("invalid_input", SAVED_LIST_MESSAGES.noneFound);

  await consumeRateLimit(db, `saved-list:address:${requester.clientAddress}`, SAVED_LIST_MAIL_LIMITS.perAddress);
  await consumeRateLimit(db, `saved-list:browser:${requester.browserKey}`, SAVED_LIST_MAIL_LIMITS.perBrowser);
  await db.transaction().execute(async (trx) => {
    await consumeRateLimit(trx, `saved-list:recipient:${input.email}`, SAVED_LIST_MAIL_LIMITS.perEmail);
    const withinDay = await takeFromAllowance(trx, `mail:recipient:${input.email}`, VISITOR_MAIL_CAPS.acrossProjects);
    if (!withinDay) throw new DomainError("rate_limited", SAVED_LIST_MAIL_LIMITS.perEmail.message, { email: SAVED_LIST_MAIL_LIMITS.perEmail.message }, retryAfterSeconds(VISITOR_MAIL_CAPS.acrossProjects));
    await enqueueMail(trx, savedListMail({ to: input.email, pitches }));
  });
  return { sent: pitches.length };
}
