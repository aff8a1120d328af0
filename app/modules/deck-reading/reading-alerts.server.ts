import type { Transaction } from "kysely";
import type { Database } from "~/db/schema";

/** A lead opened the deck: their push and Slack alert ("Ana Kovač is reading your deck"), queued with the view. */
export async function alertLeadReading(_trx: Transaction<Database>, _view: { viewId: string; projectId: string; leadId: string; at: string }): Promise<void> {}
