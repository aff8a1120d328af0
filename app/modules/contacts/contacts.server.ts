import type { Kysely } from "kysely";
import type { ContactIntent, Database } from "~/db/schema";
import type { ClaimSubmission } from "./submission-keys.server";
import type { IntroInput } from "./intro-form";
import type { SubscribeInput } from "./subscribe-form";
import { addToProjectStats } from "~/modules/analytics/project-stats.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { recordLeadActivity } from "~/modules/leads/lead-activity.server";
import { queueFounderAlert } from "~/modules/leads/lead-alerts.server";
import { introAlertMail, introConfirmationMail, welcomeMail } from "~/modules/mail/messages.server";
import { enqueueVisitorMail } from "~/modules/mail/visitor-mail.server";
import { INTRO_SENT_MESSAGE, SUBSCRIBED_MESSAGE } from "./visitor-form-rules";
import { ownerEmailOf, requireViewableProject } from "~/modules/projects/projects.server";
import { checkedAnswer } from "~/modules/leads/qualifying-question.server";
import { countSourceAction, firstKnownSource, leadEventOf, resolveSource, type VisitorIdentity } from "~/modules/analytics/sources.server";

/** Who is acting: the signed-in user, if any, and the page door's identity for attribution (decision 16). */
export type VisitorContext = {
  userId: string | null;
  identity?: VisitorIdentity;
  /**
   * When the person acted, written instead of the time of the write: a form held for review and accepted later
   * (decision 50), with where they came from then instead of the identity's current source; or a form kept on the
   * phone while offline and sent later (decision 53), when it was filled in.
   */
  sent?: { at: Date; source?: string };
};

/** The text a founder can forward as-is to whoever should meet this person. */
export function buildIntroBlurb(input: Pick<IntroInput, "name" | "roleTags" | "linkedinUrl" | "note">, projectTitle: string): string {
  const roles = input.roleTags.length ? ` (${input.roleTags.join(", ")})` : "";
  const lines = [`Intro: ${input.name}${roles} → ${projectTitle}`, "", input.note];
  if (input.linkedinUrl) lines.push("", `LinkedIn: ${input.linkedinUrl}`);
  return lines.join("\n");
}

/** The person acting, as a contact is first written; the e-mail is lowercase (the forms' e-mail field makes it so). */
type ContactFields = { name: string; email: string; intent: ContactIntent; userId: string | null; source: string; at: string };

/**
 * The project's contact for this address, created when there is none (decision 22), inside the caller's
 * transaction. The unique (project_id, email) index decides between concurrent writers: an insert that meets a
 * row, even one another transaction is still writing, does nothing and waits for it, so exactly one writer sees
 * `created`. An existing contact takes the latest name.
 */
export async function findOrCreateContact(
  trx: Kysely<Database>,
  projectId: string,
  fields: ContactFields,
  extra: { subscribed?: boolean; roleTags?: string[]; linkedinUrl?: string | null; note?: string | null } = {},
): Promise<{ id: string; created: boolean }> {
  const { email } = fields;
  const inserted = await trx
    .insertInto("contacts")
    .values({
      id: crypto.randomUUID(),
      project_id: projectId,
      name: fields.name,
      email,
      intent: fields.intent,
      subscribed: extra.subscribed ?? false,
      role_tags: extra.roleTags ?? [],
      linkedin_url: extra.linkedinUrl ?? null,
      note: extra.note ?? null,
      user_id: fields.userId,
      source: fields.source,
      created_at: fields.at,
    })
    .onConflict((oc) => oc.columns(["project_id", "email"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, created: true };
  const existing = await trx
    .updateTable("contacts")
    .set({ name: fields.name, user_id: (eb) => eb.fn.coalesce("user_id", eb.val(fields.userId)), source: firstKnownSource("contacts", fields.source) })
    .where("project_id", "=", projectId)
    .where("email", "=", email)
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}

/**
 * An intro request: a row in `intros` with its role tags, LinkedIn URL and note, on the person's one contact
 * (created with intent Intro when the address is new; its profile becomes this intro's), and the founder's
 * alert with the forwardable blurb, queued in the same transaction.
 */
export async function submitIntro(
  db: Kysely<Database>,
  links: MailLinks,
  projectId: string,
  input: IntroInput,
  visitor: VisitorContext,
  claim?: ClaimSubmission,
) {
  const project = await requireViewableProject(db, projectId, visitor.userId);
  const answer = checkedAnswer(project, input.answer);
  const blurb = buildIntroBlurb(input, project.title);
  const now = (visitor.sent?.at ?? new Date()).toISOString();
  const { email } = input;
  const contactId = await db.transaction().execute(async (trx) => {
    await claim?.(trx, { message: INTRO_SENT_MESSAGE, blurb });
    const source = visitor.sent?.source ?? (await resolveSource(trx, project.id, visitor.identity));
    const profile = { roleTags: input.roleTags, linkedinUrl: input.linkedinUrl, note: input.note };
    const contact = await findOrCreateContact(trx, project.id, { name: input.name, email, intent: "Intro", userId: visitor.userId, source, at: now }, profile);
    if (!contact.created) {
      await trx.updateTable("contacts").set({ role_tags: input.roleTags, linkedin_url: input.linkedinUrl, note: input.note }).where("id", "=", contact.id).execute();
    }
    await trx
      .insertInto("intros")
      .values({
        id: crypto.randomUUID(),
        project_id: project.id,
        contact_id: contact.id,
        role_tags: input.roleTags,
        linkedin_url: input.linkedinUrl,
        note: input.note,
        user_id: visitor.userId,
        source,
        created_at: now,
        answer: answer?.answer ?? null,
      })
      .execute();
    await addToProjectStats(trx, project.id, { intros: 1 });
    await countSourceAction(trx, project.id, source, email, "intros");
    const leadId = await recordLeadActivity(trx, {
      project,
      email: input.email,
      name: input.name,
      action: { kind: "intro", roleTags: input.roleTags, linkedinUrl: input.linkedinUrl, note: input.note, answer },
      source,
      eventSource: await leadEventOf(trx, project.id, source),
      at: now,
    });
    await enqueueVisitorMail(
      trx,
      project.id,
      introConfirmationMail({
        to: email,
        name: input.name,
        projectTitle: project.title,
        roleTags: input.roleTags,
        linkedinUrl: input.linkedinUrl,
        note: input.note,
        blurb,
        pitchUrl: links.pitchUrl(project.slug),
      }),
    );
    const founderEmail = await ownerEmailOf(trx, project.owner_id);
    if (founderEmail) {
      const roles = input.roleTags.length ? ` (${input.roleTags.join(", ")})` : "";
      await queueFounderAlert(trx, project.id, "intro", {
        mail: introAlertMail({
          to: founderEmail,
          projectTitle: project.title,
          visitorName: input.name,
          visitorEmail: email,
          roleTags: input.roleTags,
          linkedinUrl: input.linkedinUrl,
          blurb,
          leadUrl: links.leadUrl(project.id, leadId),
        }),
        summary: `Intro request: ${input.name} <${email}>${roles}`,
        leadId,
      });
    }
    return contact.id;
  });
  return { contactId, blurb };
}

/**
 * Follow updates: the person's contact becomes subscribed (created with intent Subscriber when the address is
 * new). Either way the visitor sees the same success. The welcome e-mail, the counters and the lead's activity
 * are written only by the request that turned the subscription on, so repeating the form, even from several
 * instances at the same moment, sends nothing new; `created` tells whether this request created the contact.
 */
export async function subscribeToUpdates(
  db: Kysely<Database>,
  links: MailLinks,
  projectId: string,
  input: SubscribeInput,
  visitor: VisitorContext,
  claim?: ClaimSubmission,
) {
  const project = await requireViewableProject(db, projectId, visitor.userId);
  const { email } = input;
  return db.transaction().execute(async (trx) => {
    await claim?.(trx, { message: SUBSCRIBED_MESSAGE });
    const source = visitor.sent?.source ?? (await resolveSource(trx, project.id, visitor.identity));
    const now = (visitor.sent?.at ?? new Date()).toISOString();
    const contact = await findOrCreateContact(trx, project.id, { name: input.name, email, intent: "Subscriber", userId: visitor.userId, source, at: now }, { subscribed: true });
    // Row-level: of concurrent writers, only the one whose update finds the contact unsubscribed turns it on.
    const turnedOn =
      contact.created ||
      Number(
        (await trx.updateTable("contacts").set({ subscribed: true }).where("id", "=", contact.id).where("subscribed", "=", false).executeTakeFirst())
          .numUpdatedRows,
      ) === 1;
    if (!turnedOn) return { created: false };
    await addToProjectStats(trx, project.id, { subscribers: 1 });
    await countSourceAction(trx, project.id, source, email, "subscribers");
    await recordLeadActivity(trx, { project, email, name: input.name, action: { kind: "subscription" }, source, eventSource: await leadEventOf(trx, project.id, source), at: now });
    await enqueueVisitorMail(
      trx,
      project.id,
      welcomeMail({ to: email, name: input.name, projectTitle: project.title, pitchUrl: links.pitchUrl(project.slug), unsubscribe: links.unsubscribe(contact.id) }),
    );
    return { created: contact.created };
  });
}
