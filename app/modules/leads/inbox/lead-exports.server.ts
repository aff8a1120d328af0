import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { readCodeNames } from "~/modules/analytics/sources.server";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import { LEAD_NOT_FOUND_MESSAGE, type LeadFilters } from "~/modules/leads/lead-forms";
import { cursorAfter, filteredLeads, pageAfter, type Cursor } from "./lead-query.server";
import { toLeadViews, type LeadRow, type LeadWithAddress } from "./lead-views.server";

/** One lead with what they did, for its vCard (a role that may export may see the address). */
export async function getLead(db: Kysely<Database>, ownerId: string, projectId: string, leadId: string) {
  const project = await requireProjectRole(db, ownerId, projectId, "export");
  if (!isRecordId(leadId)) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE);
  const row = (await filteredLeads(db, project.id, { action: null, status: null, event: null, q: null })
    .where("id", "=", leadId)
    .executeTakeFirst()) as LeadRow | undefined;
  if (!row) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE);
  const [lead] = await toLeadViews(db, project.id, [row], await readCodeNames(db, project.id), ownerId);
  return { project, lead: lead! };
}

const EXPORT_PAGE_SIZE = 500;

/** Every lead matching the filters, in keyset pages (memory stays flat), for the vCards download (its caller checks `export`). */
export async function* iterateLeads(db: Kysely<Database>, projectId: string, filters: Omit<LeadFilters, "after">): AsyncGenerator<LeadWithAddress[]> {
  let cursor: Cursor | null = null;
  const codeNames = await readCodeNames(db, projectId);
  for (;;) {
    const rows = (await pageAfter(filteredLeads(db, projectId, filters), cursor, EXPORT_PAGE_SIZE, filters).execute()) as LeadRow[];
    if (rows.length === 0) return;
    yield await toLeadViews(db, projectId, rows, codeNames, null);
    const last = rows[rows.length - 1]!;
    cursor = cursorAfter(last, filters);
    if (rows.length < EXPORT_PAGE_SIZE) return;
  }
}
