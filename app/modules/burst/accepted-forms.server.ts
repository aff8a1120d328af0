import type { Kysely, Selectable, Transaction } from "kysely";
import type { AcceptedFormsTable, Database, FormReceipt } from "~/db/schema";
import { addToProjectStats } from "~/modules/analytics/project-stats.server";
import { addToSourceStats } from "~/modules/analytics/sources.server";
import { bumpContentVersion } from "~/modules/projects/projects.server";
import { VISITOR_FORM_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import { holdSubmission } from "~/modules/held/held-submissions.server";

/**
 * A burst found late (decision 95): a script that waits out the speed check gets its first forms accepted before
 * the burst limit sees the rest. Each accepted visitor form therefore leaves a receipt for the burst window (what
 * its write did, `FormReceipt`, filled in by the writers), and when a later form of the same browser is held for
 * a burst, the forms it had accepted in the window are taken back out of every count and held with it.
 */

/** How long a receipt is kept: the burst window. */
export const RECEIPT_KEPT_MS = VISITOR_FORM_LIMITS.burstPerBrowser.windowSeconds * 1000;

/** An accepted form on its way to a receipt: who sent what, and what the write did (filled in as it goes). */
export type AcceptedFormDraft = {
  projectId: string;
  browserKey: string;
  intent: AcceptedFormsTable["intent"];
  name: string;
  email: string;
  fields: Record<string, unknown>;
  userId: string | null;
  sentAt: Date;
  receivedAt: Date;
  receipt: FormReceipt;
};

/** Keeps the receipt, inside the form's write, and drops this browser's receipts older than the window. */
export async function keepAcceptedForm(trx: Kysely<Database>, draft: AcceptedFormDraft, source: string): Promise<void> {
  await trx
    .deleteFrom("accepted_forms")
    .where("project_id", "=", draft.projectId)
    .where("browser_key", "=", draft.browserKey)
    .where("received_at", "<", new Date(draft.receivedAt.getTime() - RECEIPT_KEPT_MS).toISOString())
    .execute();
  await trx
    .insertInto("accepted_forms")
    .values({
      id: crypto.randomUUID(),
      project_id: draft.projectId,
      browser_key: draft.browserKey,
      intent: draft.intent,
      name: draft.name,
      email: draft.email,
      submitted_fields: draft.fields,
      source,
      user_id: draft.userId,
      sent_at: draft.sentAt.toISOString(),
      received_at: draft.receivedAt.toISOString(),
      receipt: draft.receipt,
    })
    .execute();
}

export const MOVED_FOR_BURST_TEXT = "Accepted at first, then moved here: a later form from this browser was part of a burst";

/**
 * Moves the forms this browser had accepted in the burst window to held, inside the transaction that holds the
 * burst's form: newest first, each write taken back (its row, counters, the person's first-time marks, the lead
 * as it was, its contact if it made one, the mails, alerts and webhook deliveries still waiting) and the form kept
 * for review with its own time and source. Resolves how many were moved.
 */
export async function moveBurstToHeld(trx: Transaction<Database>, projectId: string, browserKey: string, now: Date): Promise<number> {
  const accepted = await trx
    .selectFrom("accepted_forms")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("browser_key", "=", browserKey)
    .where("received_at", ">=", new Date(now.getTime() - RECEIPT_KEPT_MS).toISOString())
    .orderBy("received_at", "desc")
    .orderBy("id", "desc")
    .execute();
  let moved = 0;
  for (const form of accepted) {
    if (form.receipt.repeated) continue;
    await takeBack(trx, form, now);
    await holdSubmission(trx, {
      projectId,
      intent: form.intent,
      name: form.name,
      email: form.email,
      fields: form.submitted_fields,
      reason: "burst",
      reasonText: MOVED_FOR_BURST_TEXT,
      source: form.source,
      userId: form.user_id,
      browserKey,
      receivedAt: new Date(form.received_at),
      sentAt: new Date(form.sent_at),
    });
    await trx.deleteFrom("accepted_forms").where("id", "=", form.id).execute();
    moved += 1;
  }
  return moved;
}

type AcceptedForm = Selectable<AcceptedFormsTable>;

/** Undoes what one accepted form wrote, as its receipt says. */
async function takeBack(trx: Transaction<Database>, form: AcceptedForm, now: Date): Promise<void> {
  const { receipt } = form;
  const nowIso = now.toISOString();
  const projectId = form.project_id;
  if (form.intent === "intro" && receipt.rowId) {
    await trx.deleteFrom("intros").where("id", "=", receipt.rowId).execute();
    await addToProjectStats(trx, projectId, { intros: -1 });
    await addToSourceStats(trx, projectId, form.source, { intros: -1 });
  }
  if (form.intent === "signal" && receipt.rowId) {
    await trx.deleteFrom("signals").where("id", "=", receipt.rowId).execute();
    await addToProjectStats(trx, projectId, { signals: -1 });
    await addToSourceStats(trx, projectId, form.source, { signals: -1 });
    if (receipt.wallEntryId !== undefined) {
      await trx.updateTable("recognition_entries").set({ hidden: true }).where("id", "=", receipt.wallEntryId).execute();
      await bumpContentVersion(trx, projectId);
    }
  }
  if (form.intent === "subscribe" && receipt.subscribed && receipt.contact) {
    await trx.updateTable("contacts").set({ subscribed: false, awaiting_confirmation: false }).where("id", "=", receipt.contact.id).execute();
    await addToProjectStats(trx, projectId, { subscribers: -1 });
    await addToSourceStats(trx, projectId, form.source, { subscribers: -1 });
  }
  for (const key of receipt.newPeople ?? []) {
    await trx.deleteFrom("source_people").where("project_id", "=", projectId).where("source", "=", key).where("email", "=", form.email).execute();
    await addToSourceStats(trx, projectId, key, { people: -1 });
  }
  if (receipt.eventId) {
    // What no worker holds yet; one being sent now is gone already.
    for (const table of ["alert_deliveries", "webhook_deliveries"] as const) {
      await trx
        .deleteFrom(table)
        .where("event_id", "=", receipt.eventId)
        .where("status", "=", "pending")
        .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", nowIso)]))
        .execute();
    }
  }
  if (receipt.mailIds?.length) {
    await trx
      .deleteFrom("mail_outbox")
      .where("id", "in", receipt.mailIds)
      .where("sent_at", "is", null)
      .where("handed_over_at", "is", null)
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", nowIso)]))
      .execute();
  }
  if (receipt.lead) {
    await trx.deleteFrom("pending_lead_alerts").where("lead_id", "=", receipt.lead.id).where("created_at", ">=", form.received_at).where("summary_slot", "is", null).execute();
    if (receipt.lead.before) await trx.updateTable("leads").set(receipt.lead.before).where("id", "=", receipt.lead.id).execute();
    else await trx.deleteFrom("leads").where("id", "=", receipt.lead.id).execute();
  }
  if (receipt.contact?.created) {
    const stillUsed = await trx
      .selectFrom("intros")
      .select("id")
      .where("contact_id", "=", receipt.contact.id)
      .union(trx.selectFrom("signals").select("id").where("contact_id", "=", receipt.contact.id))
      .limit(1)
      .executeTakeFirst();
    const subscribed = await trx.selectFrom("contacts").select("id").where("id", "=", receipt.contact.id).where("subscribed", "=", true).executeTakeFirst();
    if (!stillUsed && !subscribed) await trx.deleteFrom("contacts").where("id", "=", receipt.contact.id).execute();
  }
}
