import { sql, type Kysely } from "kysely";
import { firstKnownSource } from "~/modules/analytics/sources.server";
import type { Database, FormReceipt, LeadSnapshot } from "~/db/schema";
import { enqueueWebhookEvent, type WebhookAction } from "~/modules/webhooks/webhooks.server";
import type { AlertKind } from "~/modules/founder-alerts/alert-channel-form";
import { queueLeadAlerts } from "~/modules/founder-alerts/founder-alerts.server";
import { linkViewerToLead } from "~/modules/deck-reading/link-viewer-lead.server";
import { readingOfLeads } from "~/modules/deck/lead-reading.server";
import { UNKNOWN_EVENT, type LeadAction } from "~/modules/leads/lead-forms";

export type LeadActivity = {
  project: { id: string; title: string; slug: string };
  email: string;
  name: string;
  /** What they did, as the project's webhooks report it. */
  action: WebhookAction;
  /** Where the visitor came from on this action (`qr:{code id}`, `direct`, `unknown`). */
  source: string;
  /** That source named (`leadEventOf`) for the webhook, when known. */
  eventSource: string | null;
  at: string;
  /** The door's viewer who sent it, when known and not the team's: their deck reading becomes this lead's. */
  viewerFingerprint?: string | null;
  /** A visitor form's receipt (decision 95): the lead as it was before, and the event's id, are noted on it. */
  receipt?: FormReceipt;
};

const ALERT_KIND = { intro: "intro", subscription: "follow", signal: "signal" } as const satisfies Record<LeadAction, AlertKind>;

const ACTION_COLUMN = { intro: "did_intro", subscription: "did_subscribe", signal: "did_signal" } as const satisfies Record<LeadAction, string>;

/**
 * Keeps the project's lead for this e-mail up to date, inside the caller's transaction (the visitor's write):
 * created on a first action, otherwise moved to the top of the inbox with the latest name and the action added.
 * The founder's triage is never touched here. The project's webhooks, pushes and Slack post are queued in the same
 * transaction; the webhook carries the lead's reading of the deck as it stands then (their viewer's included).
 * Returns the lead's id.
 */
export async function recordLeadActivity(trx: Kysely<Database>, activity: LeadActivity): Promise<string> {
  const column = ACTION_COLUMN[activity.action.kind];
  const before = activity.receipt ? await leadSnapshot(trx, activity.project.id, activity.email) : null;
  const answer = activity.action.kind === "subscription" ? null : activity.action.answer;
  const row = await trx
    .insertInto("leads")
    .values({
      id: crypto.randomUUID(),
      project_id: activity.project.id,
      email: activity.email,
      name: activity.name,
      first_seen_at: activity.at,
      last_activity_at: activity.at,
      [column]: true,
      source: activity.source,
      note: null,
      triaged_at: null,
      awaiting_since: activity.at,
      question: answer?.question ?? null,
      answer: answer?.answer ?? null,
    })
    .onConflict((oc) =>
      oc.columns(["project_id", "email"]).doUpdateSet((eb) => ({
        name: eb.ref("excluded.name"),
        last_activity_at: eb.ref("excluded.last_activity_at"),
        [column]: true,
        source: firstKnownSource("leads", activity.source),
        // A person only met in person starts waiting with their first own action; what the team sent them before
        // answered nothing they asked (decision 84).
        awaiting_since: eb.fn.coalesce("leads.awaiting_since", eb.ref("excluded.awaiting_since")),
        first_response_at: eb.case().when("leads.awaiting_since", "is", null).then(sql<string | null>`null`).else(eb.ref("leads.first_response_at")).end(),
        // Their latest answer; an action without one (a subscription) leaves the last one standing.
        ...(answer ? { question: eb.ref("excluded.question"), answer: eb.ref("excluded.answer") } : {}),
      })),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  if (activity.viewerFingerprint) await linkViewerToLead(trx, { projectId: activity.project.id, viewerFingerprint: activity.viewerFingerprint, leadId: row.id });
  const eventId = crypto.randomUUID();
  const reading = (await readingOfLeads(trx, activity.project.id, [row.id])).get(row.id);
  await enqueueWebhookEvent(trx, {
    id: eventId,
    type: `lead.${activity.action.kind}`,
    createdAt: activity.at,
    project: { id: activity.project.id, title: activity.project.title, slug: activity.project.slug },
    lead: {
      id: row.id,
      name: activity.name,
      email: activity.email,
      deck: reading ? { pagesRead: reading.pagesRead, pageCount: reading.pageCount, secondsRead: Math.round(reading.ms / 1000) } : null,
    },
    action: activity.action,
    sourceEvent: activity.eventSource ?? UNKNOWN_EVENT,
  });
  if (activity.receipt) {
    activity.receipt.lead = { id: row.id, before };
    activity.receipt.eventId = eventId;
  }
  await queueLeadAlerts(trx, {
    id: eventId,
    project: activity.project,
    leadId: row.id,
    kind: ALERT_KIND[activity.action.kind],
    name: activity.name,
    eventSource: activity.eventSource,
    at: activity.at,
  });
  return row.id;
}

/** The columns of a lead a visitor action changes, as they stand (null: no lead for this address yet). */
async function leadSnapshot(trx: Kysely<Database>, projectId: string, email: string): Promise<LeadSnapshot | null> {
  const row = await trx
    .selectFrom("leads")
    .select(["name", "last_activity_at", "did_intro", "did_subscribe", "did_signal", "source", "awaiting_since", "first_response_at", "question", "answer"])
    .where("project_id", "=", projectId)
    .where("email", "=", email)
    .executeTakeFirst();
  if (!row) return null;
  const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());
  return { ...row, last_activity_at: iso(row.last_activity_at)!, awaiting_since: iso(row.awaiting_since), first_response_at: iso(row.first_response_at) };
}
