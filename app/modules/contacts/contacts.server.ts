import type { Kysely } from "kysely";
import type { ContactIntent, Database } from "~/db/schema";
import type { ClaimSubmission } from "./submission-keys.server";
import type { IntroInput } from "./intro-form";
import type { SubscribeInput } from "./subscribe-form";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { recordLeadActivity } from "~/modules/leads/inbox/lead-activity.server";
import { queueFounderAlert } from "~/modules/leads/inbox/lead-alerts.server";
import { introAlertMail } from "~/modules/mail/founder-messages.server";
import { introConfirmationMail, subscriptionConfirmationMail, welcomeMail } from "~/modules/mail/visitor-messages.server";
import { createAddressConfirmation } from "~/modules/mail/address-confirmations.server";
import { findProjectAccess } from "~/modules/access/project-access.server";
import { enqueueVisitorMail } from "~/modules/mail/visitor-mail.server";
import { INTRO_SENT_MESSAGE, SUBSCRIBED_MESSAGE } from "./visitor-form-rules";
import { ownerEmailOf, requireViewableProject } from "~/modules/projects/projects.server";
import { checkedAnswer } from "~/modules/leads/inbox/qualifying-question.server";
import { countVisitorAction, firstKnownSource, leadEventOf, resolveSource, type VisitorIdentity } from "~/modules/analytics/sources.server";
import { DIRECT_EVENT } from "~/modules/analytics/source-names";
import { keepAcceptedForm, type AcceptedFormDraft } from "~/modules/burst/accepted-forms.server";

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
  /**
   * A visitor's own form (not one the founder accepted): what its write does is noted here and kept as its
   * receipt for the burst window, so a burst found later can take it back (decision 95).
   */
  accepted?: AcceptedFormDraft;
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
  extra: { subscribed?: boolean; awaitingConfirmation?: boolean; roleTags?: string[]; linkedinUrl?: string | null; note?: string | null } = {},
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
      awaiting_confirmation: extra.awaitingConfirmation ?? false,
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
    const receipt = visitor.accepted?.receipt;
    if (receipt) receipt.contact = contact;
    if (!contact.created) {
      await trx.updateTable("contacts").set({ role_tags: input.roleTags, linkedin_url: input.linkedinUrl, note: input.note }).where("id", "=", contact.id).execute();
    }
    const introId = crypto.randomUUID();
    if (receipt) receipt.rowId = introId;
    await trx
      .insertInto("intros")
      .values({
        id: introId,
        project_id: project.id,
        contact_id: contact.id,
        role_tags: input.roleTags,
        linkedin_url: input.linkedinUrl,
        note: input.note,
        user_id: visitor.userId,
        source,
        created_at: now,
        recorded_at: visitor.sent ? new Date().toISOString() : now,
        answer: answer?.answer ?? null,
      })
      .execute();
    await countVisitorAction(trx, project.id, source, email, "intros", receipt);
    const leadEvent = await leadEventOf(trx, project.id, source);
    const leadId = await recordLeadActivity(trx, {
      receipt,
      viewerFingerprint: visitor.identity?.viewerFingerprint,
      project,
      email: input.email,
      name: input.name,
      action: { kind: "intro", roleTags: input.roleTags, linkedinUrl: input.linkedinUrl, note: input.note, answer },
      source,
      eventSource: leadEvent,
      at: now,
    });
    const mailId = await enqueueVisitorMail(
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
          // Where they came from, as the signal alert says it: a QR code's event, never the plain link.
          eventSource: leadEvent === DIRECT_EVENT ? null : leadEvent,
          blurb,
          leadUrl: links.leadUrl(project.id, leadId),
        }),
        summary: `Intro request: ${input.name} <${email}>${roles}`,
        leadId,
      });
    }
    if (visitor.accepted) {
      if (mailId) visitor.accepted.receipt.mailIds = [mailId];
      await keepAcceptedForm(trx, visitor.accepted, source);
    }
    return contact.id;
  });
  return { contactId, blurb };
}

/** How long the link of a subscription the team typed in keeps working: a week, for someone met at an event. */
export const SUBSCRIPTION_CONFIRMATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Follow updates: the person's contact becomes subscribed (created with intent Subscriber when the address is
 * new). Either way the visitor sees the same success. The welcome e-mail, the counters and the lead's activity
 * are written only by the request that turned the subscription on, so repeating the form, even from several
 * instances at the same moment, sends nothing new; `created` tells whether this request created the contact.
 *
 * A subscription made by the project's own team (a signed-in owner or member typing someone's address into the
 * form, or a held form of theirs accepted later) waits for the address (decision 79): the contact is marked
 * `awaiting_confirmation`, gets a confirmation link instead of the welcome, and no update or digest until it is
 * confirmed. A visitor's own form for that address confirms it, as their own subscription always did.
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
  const byTeam = visitor.userId !== null && (await findProjectAccess(db, visitor.userId, project.id)) !== null;
  const { email } = input;
  return db.transaction().execute(async (trx) => {
    await claim?.(trx, { message: SUBSCRIBED_MESSAGE });
    const source = visitor.sent?.source ?? (await resolveSource(trx, project.id, visitor.identity));
    const now = (visitor.sent?.at ?? new Date()).toISOString();
    const contact = await findOrCreateContact(trx, project.id, { name: input.name, email, intent: "Subscriber", userId: visitor.userId, source, at: now }, { subscribed: true, awaitingConfirmation: byTeam });
    const receipt = visitor.accepted?.receipt;
    if (receipt) receipt.contact = contact;
    /** The answer, once the form's receipt is kept with the mail it queued. */
    const done = async (created: boolean, mailId: string | null) => {
      if (visitor.accepted) {
        if (mailId) visitor.accepted.receipt.mailIds = [mailId];
        await keepAcceptedForm(trx, visitor.accepted, source);
      }
      return { created };
    };
    const welcome = () =>
      enqueueVisitorMail(
        trx,
        project.id,
        welcomeMail({ to: email, name: input.name, projectTitle: project.title, pitchUrl: links.pitchUrl(project.slug), unsubscribe: links.unsubscribe(contact.id) }),
      );
    if (!contact.created && !byTeam) {
      const confirmed = await trx.updateTable("contacts").set({ awaiting_confirmation: false }).where("id", "=", contact.id).where("subscribed", "=", true).where("awaiting_confirmation", "=", true).executeTakeFirst();
      if (Number(confirmed.numUpdatedRows) === 1) return done(false, await welcome());
    }
    // Row-level: of concurrent writers, only the one whose update finds the contact unsubscribed turns it on.
    const turnedOn =
      contact.created ||
      Number(
        (await trx.updateTable("contacts").set({ subscribed: true, awaiting_confirmation: byTeam }).where("id", "=", contact.id).where("subscribed", "=", false).executeTakeFirst())
          .numUpdatedRows,
      ) === 1;
    if (!turnedOn) return done(false, null);
    if (receipt) receipt.subscribed = true;
    await countVisitorAction(trx, project.id, source, email, "subscribers", receipt);
    await recordLeadActivity(trx, { project, email, name: input.name, viewerFingerprint: visitor.identity?.viewerFingerprint, action: { kind: "subscription" }, source, eventSource: await leadEventOf(trx, project.id, source), at: now, receipt });
    if (!byTeam) return done(contact.created, await welcome());
    const token = await createAddressConfirmation(trx, { purpose: "subscription", email, payload: { contactId: contact.id }, ttlMs: SUBSCRIPTION_CONFIRMATION_TTL_MS });
    return done(contact.created, await enqueueVisitorMail(trx, project.id, subscriptionConfirmationMail({ to: email, name: input.name, projectTitle: project.title, confirmUrl: links.subscriptionConfirmUrl(token) })));
  });
}
