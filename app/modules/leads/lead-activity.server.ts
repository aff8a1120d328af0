import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { LeadAction } from "./lead-forms";

export type LeadActivity = {
  projectId: string;
  email: string;
  name: string;
  action: LeadAction;
  /** The event of the QR code the visitor came through, when known. */
  eventSource: string | null;
  at: string;
};

const ACTION_COLUMN = { intro: "did_intro", subscription: "did_subscribe", signal: "did_signal" } as const;

/**
 * Keeps the project's lead for this e-mail up to date, inside the caller's transaction (the visitor's write):
 * created on a first action, otherwise moved to the top of the inbox with the latest name and the action added.
 * The founder's triage is never touched here. Returns the lead's id.
 */
export async function recordLeadActivity(trx: Kysely<Database>, activity: LeadActivity): Promise<string> {
  const column = ACTION_COLUMN[activity.action];
  const row = await trx
    .insertInto("leads")
    .values({
      id: crypto.randomUUID(),
      project_id: activity.projectId,
      email: activity.email.toLowerCase(),
      name: activity.name,
      first_seen_at: activity.at,
      last_activity_at: activity.at,
      [column]: true,
      event_source: activity.eventSource,
      note: null,
      triaged_at: null,
    })
    .onConflict((oc) =>
      oc.columns(["project_id", "email"]).doUpdateSet((eb) => ({
        name: eb.ref("excluded.name"),
        last_activity_at: eb.ref("excluded.last_activity_at"),
        [column]: true,
        event_source: eb.fn.coalesce("leads.event_source", "excluded.event_source"),
      })),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
