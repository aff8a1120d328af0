import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { checkAddressConfirmation, createAddressConfirmation, useAddressConfirmation, type ConfirmationFailure } from "~/modules/mail/address-confirmations.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { savedListConfirmationMail, savedListMail } from "~/modules/mail/visitor-messages.server";
import { enqueueMail } from "~/modules/mail/outbox.server";
import { consumeRateLimit, retryAfterSeconds, SAVED_LIST_MAIL_LIMITS, takeFromAllowance, VISITOR_MAIL_CAPS } from "~/modules/rate-limit/rate-limit.server";
import type { EmailSavedListInput } from "./saved-list-form";
import { SAVED_LIST_MESSAGES } from "./saved-list-rules";

/**
 * Who asks: the browser (its viewer id's hash, else its address and user agent), its network address, and the
 * address this browser has confirmed it controls, if any (the list-mail cookie, decision 38).
 */
export type SavedListRequester = { browserKey: string; clientAddress: string; confirmedAddress: string | null };

/** What happened: the list was queued to an address this browser confirmed, or the address was asked to confirm. */
export type EmailSavedListOutcome = { status: "sent"; sent: number } | { status: "confirm" };

type ListLinks = Pick<MailLinks, "pitchUrl" | "savedListConfirmUrl" | "savedListStopUrl">;

const MAIL_BLOCK_KIND = "saved-list";
/** A stop link keeps working as long as the mail that carries it may be kept. */
const STOP_LINK_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/** The saved pitches that are published, in the visitor's order, deduplicated, from our own rows. */
async function publishedPitches(db: Kysely<Database>, links: ListLinks, slugs: readonly string[]) {
  if (slugs.length === 0) return [];
  const rows = await db.selectFrom("projects").select(["slug", "title", "one_liner"]).where("slug", "in", [...slugs]).where("status", "=", "published").execute();
  const bySlug = new Map(rows.map((row) => [row.slug, row]));
  return [...new Set(slugs)].flatMap((slug) => {
    const row = bySlug.get(slug);
    return row ? [{ slug: row.slug, title: row.title, oneLiner: row.one_liner, url: links.pitchUrl(row.slug) }] : [];
  });
}

async function isBlocked(db: Kysely<Database>, email: string): Promise<boolean> {
  return !!(await db.selectFrom("mail_blocks").select("email").where("email", "=", email).where("kind", "=", MAIL_BLOCK_KIND).executeTakeFirst());
}

/** The "not me, stop" link every saved-list mail carries: a long-lived, reusable link of its own. */
async function stopUrlFor(db: Kysely<Database>, links: ListLinks, email: string, now: Date): Promise<string> {
  return links.savedListStopUrl(await createAddressConfirmation(db, { purpose: "saved-list-stop", email, ttlMs: STOP_LINK_TTL_MS }, now));
}

async function queueList(db: Kysely<Database>, links: ListLinks, email: string, pitches: Awaited<ReturnType<typeof publishedPitches>>, now: Date) {
  await enqueueMail(db, savedListMail({ to: email, pitches, stopUrl: await stopUrlFor(db, links, email, now) }), now);
}

/**
 * 'E-mail me this list' (decision 38). To an address this browser confirmed: one message with every saved
 * pitch that is published, written from our own data, queued in the outbox. To any other address: only a request
 * to confirm, carrying no text of anyone's, and the list follows when its link's page is confirmed; an address that
 * asked for no more saved-list mail gets nothing, and the answer is the same. Over a limit nothing is queued and the
 * visitor is told which. The recipient's counters are taken with the queued row, so a request refused for another
 * reason does not use up that address's allowance. Nothing else is stored: no contact, no subscription.
 */
export async function emailSavedList(
  db: Kysely<Database>,
  links: ListLinks,
  requester: SavedListRequester,
  input: EmailSavedListInput,
  now = new Date(),
): Promise<EmailSavedListOutcome> {
  const pitches = await publishedPitches(db, links, input.slugs);
  if (pitches.length === 0) throw new DomainError("invalid_input", SAVED_LIST_MESSAGES.noneFound);
  const { email } = input;
  const confirmed = requester.confirmedAddress === email;

  await consumeRateLimit(db, `saved-list:address:${requester.clientAddress}`, SAVED_LIST_MAIL_LIMITS.perAddress, now.getTime());
  await consumeRateLimit(db, `saved-list:browser:${requester.browserKey}`, SAVED_LIST_MAIL_LIMITS.perBrowser, now.getTime());
  if (!confirmed) {
    await consumeRateLimit(db, `saved-list:confirmations:address:${requester.clientAddress}`, SAVED_LIST_MAIL_LIMITS.confirmationsPerAddress, now.getTime());
    await consumeRateLimit(db, "saved-list:confirmations", SAVED_LIST_MAIL_LIMITS.confirmationsOverall, now.getTime());
  }
  return db.transaction().execute(async (trx): Promise<EmailSavedListOutcome> => {
    await consumeRateLimit(trx, `saved-list:recipient:${email}`, SAVED_LIST_MAIL_LIMITS.perEmail, now.getTime());
    const withinDay = await takeFromAllowance(trx, `mail:recipient:${email}`, VISITOR_MAIL_CAPS.acrossProjects, now.getTime());
    if (!withinDay) throw new DomainError("rate_limited", SAVED_LIST_MAIL_LIMITS.perEmail.message, { email: SAVED_LIST_MAIL_LIMITS.perEmail.message }, retryAfterSeconds(VISITOR_MAIL_CAPS.acrossProjects));
    if (await isBlocked(trx, email)) {
      // Its owner, from the browser that proved it, is told; anyone else learns nothing about the address.
      if (confirmed) throw new DomainError("invalid_input", SAVED_LIST_MESSAGES.stopped, { email: SAVED_LIST_MESSAGES.stopped });
      return { status: "confirm" };
    }
    if (confirmed) {
      await queueList(trx, links, email, pitches, now);
      return { status: "sent", sent: pitches.length };
    }
    const token = await createAddressConfirmation(trx, { purpose: "saved-list", email, payload: { slugs: pitches.map((pitch) => pitch.slug) } }, now);
    const stopUrl = await stopUrlFor(trx, links, email, now);
    await enqueueMail(trx, savedListConfirmationMail({ to: email, pitchCount: pitches.length, confirmUrl: links.savedListConfirmUrl(token), stopUrl }), now);
    return { status: "confirm" };
  });
}

type ListPayload = { slugs: string[] };

/** A confirmation link as its page shows it before anything is sent: the address and how many pitches, or why not. */
export async function checkSavedListConfirmation(db: Kysely<Database>, token: string, now = new Date()): Promise<{ status: "valid"; email: string; pitchCount: number } | ConfirmationFailure> {
  const check = await checkAddressConfirmation<ListPayload>(db, "saved-list", token, now);
  if (check.status !== "valid") return check;
  return { status: "valid", email: check.email, pitchCount: check.payload.slugs.length };
}

/**
 * The confirmation page's button: uses the link once and queues the list (its pitches as published now) to the
 * confirmed address. Confirming is the address owner's own act, so it also lifts an earlier "stop".
 */
export async function confirmSavedListMail(
  db: Kysely<Database>,
  links: ListLinks,
  token: string,
  now = new Date(),
): Promise<{ status: "valid"; email: string; sent: number } | ConfirmationFailure> {
  return db.transaction().execute(async (trx) => {
    const check = await useAddressConfirmation<ListPayload>(trx, "saved-list", token, now);
    if (check.status !== "valid") return check;
    const pitches = await publishedPitches(trx, links, check.payload.slugs);
    await trx.deleteFrom("mail_blocks").where("email", "=", check.email).where("kind", "=", MAIL_BLOCK_KIND).execute();
    if (pitches.length > 0) await queueList(trx, links, check.email, pitches, now);
    return { status: "valid", email: check.email, sent: pitches.length };
  });
}

/** A stop link as its page shows it: the address it stops, or why not. */
export async function checkSavedListStop(db: Kysely<Database>, token: string, now = new Date()): Promise<{ status: "valid"; email: string } | ConfirmationFailure> {
  const check = await checkAddressConfirmation<null>(db, "saved-list-stop", token, now);
  return check.status === "valid" ? { status: "valid", email: check.email } : check;
}

/** The stop page's button: no saved list or confirmation is queued to the address again (the link may be used again). */
export async function stopSavedListMail(db: Kysely<Database>, token: string, now = new Date()): Promise<{ status: "valid"; email: string } | ConfirmationFailure> {
  const check = await checkSavedListStop(db, token, now);
  if (check.status !== "valid") return check;
  await db
    .insertInto("mail_blocks")
    .values({ email: check.email, kind: MAIL_BLOCK_KIND, created_at: now.toISOString() })
    .onConflict((oc) => oc.columns(["email", "kind"]).doNothing())
    .execute();
  return check;
}
