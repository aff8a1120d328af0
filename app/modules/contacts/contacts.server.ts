import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { ClaimSubmission } from "~/modules/pitch/submission-keys.server";
import type { IntroInput, SubscribeInput } from "~/modules/pitch/visitor-forms";
import { addToProjectStats } from "~/modules/analytics/project-stats.server";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { recordLeadActivity } from "~/modules/leads/lead-activity.server";
import { queueFounderAlert } from "~/modules/leads/lead-alerts.server";
import { introAlertMail, welcomeMail } from "~/modules/mail/messages.server";
import { enqueueMail } from "~/modules/mail/outbox.server";
import { INTRO_SENT_MESSAGE, SUBSCRIBED_MESSAGE } from "~/modules/pitch/visitor-action-result";
import { ownerEmailOf, requireViewableProject } from "~/modules/projects/projects.server";
import { countSourceAction, leadEventOf, resolveSource, type VisitorIdentity } from "~/modules/analytics/sources.server";

/** Who is acting: the signed-in user, if any, and the page door's identity for attribution (decision 16). */
export type VisitorContext = { userId: string | null; identity?: VisitorIdentity };

/** The text a founder can forward as-is to whoever should meet this person. */
export function buildIntroBlurb(input: Pick<IntroInput, "name" | "roleTags" | "linkedinUrl" | "note">, projectTitle: string): string {
  const roles = input.roleTags.length ? ` (${input.roleTags.join(", ")})` : "";
  const lines = [`Intro: ${input.name}${roles} → ${projectTitle}`, "", input.note];
  if (input.linkedinUrl) lines.push("", `LinkedIn: ${input.linkedinUrl}`);
  return lines.join("\n");
}

/**
 * An intro request: one contact with intent Intro, its role tags, LinkedIn URL and note, and the founder's alert
 * with the forwardable blurb, queued in the same transaction.
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
  const id = crypto.randomUUID();
  const blurb = buildIntroBlurb(input, project.title);
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await claim?.(trx, { message: INTRO_SENT_MESSAGE, blurb });
    const source = await resolveSource(trx, project.id, visitor.identity);
    await trx
    .insertInto("contacts")
    .values({
      id,
      project_id: project.id,
      name: input.name,
      email: input.email.toLowerCase(),
      intent: "Intro",
      subscribed: false,
      role_tags: input.roleTags,
      linkedin_url: input.linkedinUrl,
      note: input.note,
      user_id: visitor.userId,
      source,
      created_at: now,
    })
    .execute();
    await addToProjectStats(trx, project.id, { intros: 1 });
    await countSourceAction(trx, project.id, source, input.email.toLowerCase(), "intros");
    await recordLeadActivity(trx, {
      project,
      email: input.email,
      name: input.name,
      action: { kind: "intro", roleTags: input.roleTags, linkedinUrl: input.linkedinUrl, note: input.note },
      eventSource: await leadEventOf(trx, project.id, source),
      at: now,
    });
    const founderEmail = await ownerEmailOf(trx, project.owner_id);
    if (founderEmail) {
      const roles = input.roleTags.length ? ` (${input.roleTags.join(", ")})` : "";
      await queueFounderAlert(trx, project.id, "intro", {
        mail: introAlertMail({
          to: founderEmail,
          projectTitle: project.title,
          visitorName: input.name,
          visitorEmail: input.email.toLowerCase(),
          roleTags: input.roleTags,
          linkedinUrl: input.linkedinUrl,
          blurb,
          analyticsUrl: links.analyticsUrl(project.id),
        }),
        summary: `Intro request: ${input.name} <${input.email.toLowerCase()}>${roles}`,
      });
    }
  });
  return { contactId: id, blurb };
}

/**
 * Follow updates: every contact of this project with that e-mail becomes subscribed; when there is none,
 * a Subscriber contact is created. Either way the visitor sees the same success. A welcome e-mail is queued
 * when the address was not subscribed before, so repeating the form sends nothing new.
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
  const email = input.email.toLowerCase();
  return db.transaction().execute(async (trx) => {
    await claim?.(trx, { message: SUBSCRIBED_MESSAGE });
    const welcome = (contactId: string) =>
      enqueueMail(
        trx,
        welcomeMail({ to: email, name: input.name, projectTitle: project.title, pitchUrl: links.pitchUrl(project.slug), unsubscribe: links.unsubscribe(contactId) }),
      );
    const source = await resolveSource(trx, project.id, visitor.identity);
    const known = await trx
      .selectFrom("contacts")
      .select(["id", "subscribed"])
      .where("project_id", "=", project.id)
      .where("email", "=", email)
      .orderBy("created_at")
      .execute();
    if (known.length > 0) {
      const resubscribed = await trx
        .updateTable("contacts")
        .set({ subscribed: true })
        .where("project_id", "=", project.id)
        .where("email", "=", email)
        .where("subscribed", "=", false)
        .executeTakeFirst();
      await addToProjectStats(trx, project.id, { subscribers: Number(resubscribed.numUpdatedRows) });
      if (!known.some((contact) => contact.subscribed)) {
        await countSourceAction(trx, project.id, source, email, "subscribers");
        await recordLeadActivity(trx, { project, email, name: input.name, action: { kind: "subscription" }, eventSource: await leadEventOf(trx, project.id, source), at: new Date().toISOString() });
        await welcome(known[0]!.id);
      }
      return { created: false };
    }
    const contactId = crypto.randomUUID();
    const now = new Date().toISOString();
    await trx
      .insertInto("contacts")
      .values({
        id: contactId,
        project_id: project.id,
        name: input.name,
        email,
        intent: "Subscriber",
        subscribed: true,
        role_tags: [],
        linkedin_url: null,
        note: null,
        user_id: visitor.userId,
        source,
        created_at: now,
      })
      .execute();
    await addToProjectStats(trx, project.id, { subscribers: 1 });
    await countSourceAction(trx, project.id, source, email, "subscribers");
    await recordLeadActivity(trx, { project, email, name: input.name, action: { kind: "subscription" }, eventSource: await leadEventOf(trx, project.id, source), at: now });
    await welcome(contactId);
    return { created: true };
  });
}
