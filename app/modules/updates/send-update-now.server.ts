import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { enqueueMails } from "~/modules/mail/outbox.server";
import { UPDATE_ALREADY_SENT_MESSAGE, type SendUpdateNowInput } from "./project-update-form";
import { followerDigestMail } from "./weekly-digest.server";

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

/**
 * 'Send now' (decision 65): mails one update, not yet mailed, to every current follower of the project at once, in
 * one transaction that also marks it sent. Marking takes the update only while its slot is empty, so a second click,
 * another instance, or Friday's digest (which claims the same way) never mails it twice. Members whose role may edit
 * the project may send; the update must be this project's. Resolves with the number of mails queued.
 */
export async function sendUpdateNow(
  db: Kysely<Database>,
  links: MailLinks,
  userId: string,
  projectId: string,
  input: SendUpdateNowInput,
  timeZone: string,
  now = new Date(),
): Promise<{ queued: number }> {
  const project = await requireProjectRole(db, userId, projectId, "edit");
  if (!isRecordId(input.updateId)) throw new DomainError("not_found", UPDATE_NOT_FOUND);
  return db.transaction().execute(async (trx) => {
    const update = await trx
      .selectFrom("project_updates")
      .select(["id", "body", "created_at", "digest_slot"])
      .where("id", "=", input.updateId)
      .where("project_id", "=", project.id)
      .executeTakeFirst();
    if (!update) throw new DomainError("not_found", UPDATE_NOT_FOUND);
    if (update.digest_slot !== null) throw new DomainError("conflict", UPDATE_ALREADY_SENT_MESSAGE);
    if (project.status !== "published") throw new DomainError("conflict", UNPUBLISHED_SEND_MESSAGE);
    const claimed = await trx
      .updateTable("project_updates")
      .set({ digest_slot: `${SENT_NOW_SLOT_PREFIX}${update.id}` })
      .where("id", "=", update.id)
      .where("digest_slot", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) throw new DomainError("conflict", UPDATE_ALREADY_SENT_MESSAGE);
    const followers = await trx
      .selectFrom("contacts")
      .select(["id", "email", "name"])
      .where("project_id", "=", project.id)
      .where("subscribed", "=", true)
      .orderBy("email")
      .execute();
    const mails = followers.map((contact) => followerDigestMail(links, project, contact, [update], timeZone));
    return { queued: await enqueueMails(trx, mails, now) };
  });
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

/** How many people would get 'Send now' right now: the project's subscribed contacts. */
export async function countFollowers(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom("contacts")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("project_id", "=", projectId)
    .where("subscribed", "=", true)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
