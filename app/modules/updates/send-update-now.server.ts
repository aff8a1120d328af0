import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { formatFounderDateTime } from "~/modules/time/founder-dates";
import { countInWindow } from "~/modules/rate-limit/rate-limit.server";
import { UPDATE_ALREADY_SENT_MESSAGE, type SendUpdateNowInput } from "./project-update-form";
import { followerDigestMail, queueDigestBatch, SEND_NOW_BATCH_SIZE } from "./weekly-digest.server";
import { plural } from "~/modules/formats/counts";

/**
 * The `digest_slot` of an update mailed by 'Send now' (decision 65): never a Friday's slot (those are dates), so the
 * weekly digest, which only takes updates whose slot is empty, never mails it again.
 */
export const SENT_NOW_SLOT_PREFIX = "now:";

export const UPDATE_NOT_FOUND = "Update not found";
export const UNPUBLISHED_SEND_MESSAGE = "Publish your pitch page first: followers get updates of a published page";

/** Stands in for a follower in the preview: each follower's own name and unsubscribe link go in their copy. */
const PREVIEW_FOLLOWER = { id: "preview", email: "follower@example.com", name: "[follower's name]" };

export type UpdateMailPreview = { updateId: string; subject: string; html: string; text: string };

/** How many updates a project may send now per day: more than that waits for Friday's digest (decision 79). */
export const SEND_NOW_LIMIT = { windowSeconds: 24 * 60 * 60, max: 3 } as const;

/** The refusal once a project used its Send now allowance: when it can send again, in `timeZone`. */
export function sendNowLimitMessage(againAt: Date, timeZone: string): string {
  return `You can send ${SEND_NOW_LIMIT.max} updates now per day. The next one can be sent from ${formatFounderDateTime(againAt.getTime(), timeZone)} (${timeZone}); until then, new updates go out in Friday's digest.`;
}

export type SentNow = {
  /** Mails queued by this request (the first batch). */
  queued: number;
  /** Followers the update goes to: everyone subscribed (and confirmed) when it was claimed. */
  followers: number;
  /** False when more than one batch is needed: the digest's pass queues the rest (`continueSentNowRuns`). */
  finished: boolean;
};

/**
 * 'Send now' (decisions 65 and 79): mails one update, not yet mailed, to every current follower of the project.
 * One transaction claims it: the update must be this project's, not yet mailed, the project published and within
 * its Send now allowance (counted in the database, so it holds across restarts and instances); marking it takes
 * the update only while its slot is empty, so a second click, another instance, or Friday's digest (which claims
 * the same way) never mails it twice, and it records the run (`digest_runs`, slot `now:{update id}`). The request
 * then queues the first of the digest's batches; a larger audience is finished by the digest's pass, batch by
 * batch, yielding between them, on whichever instance runs it (the caller wakes it). Members whose role may edit
 * the project may send.
 */
export async function sendUpdateNow(
  db: Kysely<Database>,
  links: MailLinks,
  userId: string,
  projectId: string,
  input: SendUpdateNowInput,
  timeZone: string,
  now = new Date(),
  batchSize = SEND_NOW_BATCH_SIZE,
): Promise<SentNow> {
  const project = await requireProjectRole(db, userId, projectId, "edit");
  if (!isRecordId(input.updateId)) throw new DomainError("not_found", UPDATE_NOT_FOUND);
  const claim = await db.transaction().execute(async (trx) => {
    const update = await trx
      .selectFrom("project_updates")
      .select(["id", "digest_slot"])
      .where("id", "=", input.updateId)
      .where("project_id", "=", project.id)
      .executeTakeFirst();
    if (!update) throw new DomainError("not_found", UPDATE_NOT_FOUND);
    if (update.digest_slot !== null) throw new DomainError("conflict", UPDATE_ALREADY_SENT_MESSAGE);
    if (project.status !== "published") throw new DomainError("conflict", UNPUBLISHED_SEND_MESSAGE);
    const slot = `${SENT_NOW_SLOT_PREFIX}${update.id}`;
    const claimed = await trx.updateTable("project_updates").set({ digest_slot: slot }).where("id", "=", update.id).where("digest_slot", "is", null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) throw new DomainError("conflict", UPDATE_ALREADY_SENT_MESSAGE);
    // Counted after the claim, so a click that sends nothing takes nothing; a refusal rolls the claim back.
    const window = await countInWindow(trx, `send-now:${project.id}`, SEND_NOW_LIMIT, now.getTime());
    if (window.count > SEND_NOW_LIMIT.max) {
      const againAt = new Date(window.windowStartedAt + SEND_NOW_LIMIT.windowSeconds * 1000);
      const waitSeconds = Math.max(1, Math.ceil((againAt.getTime() - now.getTime()) / 1000));
      throw new DomainError("rate_limited", sendNowLimitMessage(againAt, timeZone), {}, waitSeconds);
    }
    const at = now.toISOString();
    await trx
      .insertInto("digest_runs")
      .values({ slot, slot_at: at, ran_at: at, projects: 1, messages: 0, cursor_project_id: null, cursor_email: null, finished_at: null, project_id: project.id, time_zone: timeZone })
      .execute();
    return { slot, followers: await countFollowers(trx, project.id) };
  });
  const queued = (await queueDigestBatch(db, links, claim.slot, timeZone, batchSize, now)) ?? 0;
  return { queued, followers: claim.followers, finished: queued < batchSize };
}

/** The followers' e-mail of each update not yet mailed, as 'Send now' or Friday's digest would build it. */
export function previewUpdateMails(
  links: MailLinks,
  project: { title: string; slug: string },
  updates: { id: string; body: string; created_at: string; digest_slot: string | null }[],
  timeZone: string,
): UpdateMailPreview[] {
  return updates
    .filter((update) => update.digest_slot === null)
    .map((update) => {
      const mail = followerDigestMail(links, project, PREVIEW_FOLLOWER, [update], timeZone);
      return { updateId: update.id, subject: mail.subject, html: mail.html ?? "", text: mail.text };
    });
}

/** How many people would get 'Send now' right now: the project's subscribed contacts (confirmed, when the team added them). */
export async function countFollowers(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom("contacts")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("project_id", "=", projectId)
    .where("subscribed", "=", true)
    .where("awaiting_confirmation", "=", false)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** What the founder reads after Send now: sent, or on its way when the digest's pass queues the rest. */
export function sentNowMessage(sent: SentNow): string {
  const followers = plural(sent.followers, "follower");
  return sent.finished ? `Update sent to ${followers}` : `Sending the update to ${followers}: it goes out over the next minutes`;
}
