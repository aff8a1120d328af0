import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { findOrCreateContact, type VisitorContext } from "~/modules/contacts/contacts.server";
import { recordLeadActivity } from "~/modules/leads/inbox/lead-activity.server";
import { queueFounderAlert } from "~/modules/leads/inbox/lead-alerts.server";
import { formatAmountRange } from "~/modules/formats/amount";
import { DomainError } from "~/modules/errors.server";
import type { ClaimSubmission } from "~/modules/contacts/submission-keys.server";
import { SIGNAL_RECORDED_MESSAGE } from "~/modules/contacts/visitor-form-rules";
import type { SignalInput } from "./signal-form";
import type { MailLinks } from "~/modules/mail/mail-links.server";
import { signalAlertMail } from "~/modules/mail/founder-messages.server";
import { signalConfirmationMail } from "~/modules/mail/visitor-messages.server";
import { enqueueVisitorMail } from "~/modules/mail/visitor-mail.server";
import { addWallEntry, type NewWallEntry } from "~/modules/recognition/wall.server";
import { bumpContentVersion, ownerEmailOf, requireViewableProject } from "~/modules/projects/projects.server";
import { checkedAnswer } from "~/modules/leads/inbox/qualifying-question.server";
import { countVisitorAction, leadEventOf, resolveSource } from "~/modules/analytics/sources.server";
import { keepAcceptedForm } from "~/modules/burst/accepted-forms.server";
import { DIRECT_EVENT } from "~/modules/analytics/source-names";
import { isRecordId } from "~/modules/http/id-shape";

/** Within this time a person's second signal on the same tier updates their first instead of adding one. */
export const REPEAT_SIGNAL_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A repeat's wall: the entry the first signal put up takes the new name and message, or leaves the wall when the
 * visitor no longer shows their name; a repeat that now shows the name puts up the entry the first did not.
 */
async function updateWallForRepeat(trx: Kysely<Database>, entry: NewWallEntry & { id: number | null }, showName: boolean) {
  if (entry.id === null) return showName ? addWallEntry(trx, entry) : null;
  const row = await trx
    .updateTable("recognition_entries")
    .set({ display_name: entry.displayName, message: entry.message, is_public: showName })
    .where("id", "=", entry.id)
    .returning(["id", "wall_seq"])
    .executeTakeFirst();
  return row && showName ? { id: Number(row.id), seq: Number(row.wall_seq) } : null;
}

/**
 * A non-binding signal of interest, written in one transaction: the signal (range copied from the tier,
 * amount = range_min) on the person's one contact (created with intent Supporter when the address is new) and, when the visitor shows their name, a Supporter entry
 * with the tier's label on the Recognition Wall, with the visitor's confirmation and the founder's alert queued. A failure anywhere
 * leaves nothing behind. The message is the founder's; the wall entry carries it only when the visitor chose
 * both 'Show my name' and 'Also show my message on the wall' (a message is never shown without its name).
 * The same person's repeat on the same tier within REPEAT_SIGNAL_WINDOW_MS updates the first signal and its wall
 * entry instead, and queues no mail: a double tap, or a script, cannot multiply signals, wall entries or mails.
 */
export async function recordSignal(
  db: Kysely<Database>,
  links: MailLinks,
  projectId: string,
  input: SignalInput,
  visitor: VisitorContext,
  claim?: ClaimSubmission,
) {
  const project = await requireViewableProject(db, projectId, visitor.userId);
  const answer = checkedAnswer(project, input.answer);
  const messagePublic = input.showName && input.showMessage && input.message !== null;
  return db.transaction().execute(async (trx) => {
    await claim?.(trx, { message: SIGNAL_RECORDED_MESSAGE });
    if (!isRecordId(input.tierId)) throw new DomainError("not_found", "Tier not found", { tierId: "Tier not found" });
    const tier = await trx
      .selectFrom("signal_tiers")
      .selectAll()
      .where("id", "=", input.tierId)
      .where("project_id", "=", project.id)
      .executeTakeFirst();
    if (!tier) throw new DomainError("not_found", "Tier not found", { tierId: "Tier not found" });
    // Where the founder met this visitor: the event of the QR code they came through ("Met at {event source}").
    // The lead inbox also names the plain link; the signal's event source is a QR code's event only.
    const source = visitor.sent?.source ?? (await resolveSource(trx, project.id, visitor.identity));
    const leadEvent = await leadEventOf(trx, project.id, source);
    const eventSource = leadEvent === DIRECT_EVENT ? null : leadEvent;

    const now = (visitor.sent?.at ?? new Date()).toISOString();
    const contact = await findOrCreateContact(trx, project.id, {
      name: input.name,
      email: input.email,
      intent: "Supporter",
      userId: visitor.userId,
      source,
      at: now,
    });
    const contactId = contact.id;
    const receipt = visitor.accepted?.receipt;
    if (receipt) receipt.contact = contact;

    // The contact row is locked by this transaction from here to commit (findOrCreateContact writes it), so of
    // concurrent identical signals each sees the ones committed before it, and only the first inserts.
    const wallEntry = (wallEntryId: number | null): NewWallEntry & { id: number | null } => ({
      id: wallEntryId,
      projectId: project.id,
      type: "Supporter",
      displayName: input.name,
      // The tier the visitor chose is shown beside the name, as an intro's roles are.
      roleTags: [tier.range_label],
      message: messagePublic ? input.message : null,
      createdAt: now,
    });
    const earlier = await trx
      .selectFrom("signals")
      .select(["id", "wall_entry_id"])
      .where("contact_id", "=", contactId)
      .where("signal_tier_id", "=", tier.id)
      .where("created_at", ">=", new Date(Date.parse(now) - REPEAT_SIGNAL_WINDOW_MS).toISOString())
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (earlier) {
      const entry = await updateWallForRepeat(trx, wallEntry(earlier.wall_entry_id === null ? null : Number(earlier.wall_entry_id)), input.showName);
      await trx
        .updateTable("signals")
        .set({ message: input.message, is_public: input.showName, message_public: messagePublic, wall_entry_id: entry?.id ?? null, answer: answer?.answer ?? null })
        .where("id", "=", earlier.id)
        .execute();
      await bumpContentVersion(trx, project.id);
      if (visitor.accepted) {
        visitor.accepted.receipt.repeated = true;
        await keepAcceptedForm(trx, visitor.accepted, source);
      }
      return { signalId: earlier.id, contactId, wallEntryId: entry?.id ?? null, wallSeq: entry?.seq ?? null, projectId: project.id, slug: project.slug, repeated: true };
    }

    const signalId = crypto.randomUUID();
    if (receipt) receipt.rowId = signalId;
    await trx
      .insertInto("signals")
      .values({
        id: signalId,
        project_id: project.id,
        contact_id: contactId,
        signal_tier_id: tier.id,
        range_label: tier.range_label,
        range_min: tier.range_min,
        range_max: tier.range_max,
        amount: tier.range_min,
        event_source: eventSource,
        is_public: input.showName,
        message: input.message,
        message_public: messagePublic,
        user_id: visitor.userId,
        source,
        created_at: now,
        recorded_at: visitor.sent ? new Date().toISOString() : now,
        answer: answer?.answer ?? null,
      })
      .execute();

    await countVisitorAction(trx, project.id, source, input.email, "signals", receipt);
    const leadId = await recordLeadActivity(trx, {
      viewerFingerprint: visitor.identity?.viewerFingerprint,
      receipt,
      project,
      email: input.email,
      name: input.name,
      action: {
        kind: "signal",
        tier: tier.range_label,
        rangeMin: Number(tier.range_min),
        rangeMax: tier.range_max === null ? null : Number(tier.range_max),
        message: input.message,
        public: input.showName,
        messagePublic,
        answer,
      },
      source,
      eventSource: leadEvent,
      at: now,
    });
    await bumpContentVersion(trx, project.id);
    // Last of the writes on shared rows: the wall's number locks the project row (already locked by the
    // content version just above) until commit, so no new lock order, and numbers commit in order.
    const added = input.showName ? await addWallEntry(trx, wallEntry(null)) : null;
    if (added) await trx.updateTable("signals").set({ wall_entry_id: added.id }).where("id", "=", signalId).execute();
    if (receipt && added) receipt.wallEntryId = added.id;

    const email = input.email;
    const range = { rangeLabel: tier.range_label, rangeMin: Number(tier.range_min), rangeMax: tier.range_max === null ? null : Number(tier.range_max) };
    const mailId = await enqueueVisitorMail(
      trx,
      project.id,
      signalConfirmationMail({
        to: email,
        name: input.name,
        projectTitle: project.title,
        ...range,
        message: input.message,
        showName: input.showName,
        messagePublic,
        pitchUrl: links.pitchUrl(project.slug),
        unsubscribe: links.unsubscribe(contactId),
      }),
    );
    const founderEmail = await ownerEmailOf(trx, project.owner_id);
    if (founderEmail) {
      const met = eventSource ? `, met at ${eventSource}` : "";
      await queueFounderAlert(trx, project.id, "signal", {
        leadId,
        summary: `Signal: ${input.name} <${email}>, ${tier.range_label} (${formatAmountRange(range.rangeMin, range.rangeMax)})${met}`,
        mail: signalAlertMail({
          to: founderEmail,
          projectTitle: project.title,
          visitorName: input.name,
          visitorEmail: email,
          ...range,
          message: input.message,
          isPublic: input.showName,
          messagePublic,
          eventSource,
          leadUrl: links.leadUrl(project.id, leadId),
        }),
      });
    }
    if (visitor.accepted) {
      if (mailId) visitor.accepted.receipt.mailIds = [mailId];
      await keepAcceptedForm(trx, visitor.accepted, source);
    }
    return { signalId, contactId, wallEntryId: added?.id ?? null, wallSeq: added?.seq ?? null, projectId: project.id, slug: project.slug, repeated: false };
  });
}
