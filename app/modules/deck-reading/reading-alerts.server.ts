import type { Transaction } from "kysely";
import { dialectOf } from "~/db/dialect.server";
import type { Database } from "~/db/schema";
import { alertMessageOf, queueAlert } from "~/modules/founder-alerts/founder-alerts.server";

/** A lead opening the deck again within this long after the alerted opening alerts nothing (decision 99). */
export const LEAD_READING_QUIET_MS = 10 * 60_000;

/**
 * A lead opened the deck: their push and Slack alert ("Ana Kovač is reading your deck"), queued with the view, as
 * the project's and each member's "Deck reading" switches say. At most one per lead per LEAD_READING_QUIET_MS: a
 * view opened within that time of the lead's last alerted one is marked `skipped` (the alerted ones stay `lead`).
 * The lead's row is locked first on PostgreSQL, so two views opened at once by the lead's phones alert once.
 */
export async function alertLeadReading(trx: Transaction<Database>, view: { viewId: string; projectId: string; leadId: string; at: string }): Promise<void> {
  let leadQuery = trx
    .selectFrom("leads")
    .innerJoin("projects", "projects.id", "leads.project_id")
    .select(["leads.name", "projects.title"])
    .where("leads.id", "=", view.leadId)
    .where("leads.project_id", "=", view.projectId);
  if (dialectOf(trx) === "postgres") leadQuery = leadQuery.forUpdate("leads");
  const lead = await leadQuery.executeTakeFirst();
  if (!lead) return;
  const since = new Date(new Date(view.at).getTime() - LEAD_READING_QUIET_MS).toISOString();
  const alerted = await trx
    .selectFrom("deck_views")
    .select("id")
    .where("lead_id", "=", view.leadId)
    .where("summary_state", "=", "lead")
    .where("id", "!=", view.viewId)
    .where("started_at", ">", since)
    .executeTakeFirst();
  if (alerted) {
    await trx.updateTable("deck_views").set({ summary_state: "skipped" }).where("id", "=", view.viewId).execute();
    return;
  }
  const message = alertMessageOf({
    id: view.viewId,
    project: { id: view.projectId, title: lead.title },
    leadId: view.leadId,
    kind: "reading",
    name: lead.name,
    eventSource: null,
    at: view.at,
  });
  await queueAlert(trx, { id: `deck-view:${view.viewId}`, projectId: view.projectId, kind: "reading", message, at: view.at });
}
