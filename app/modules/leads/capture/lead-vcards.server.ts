import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import type { LeadFilters } from "~/modules/leads/lead-forms";
import { getLead, iterateLeads } from "~/modules/leads/inbox/lead-exports.server";
import { buildVCard, vcardFileName } from "./vcard";

/** One lead's vCard, for a member whose role may export. */
export async function leadVCard(db: Kysely<Database>, userId: string, projectId: string, leadId: string) {
  await requireProjectRole(db, userId, projectId, "export");
  const { project, lead } = await getLead(db, userId, projectId, leadId);
  return { fileName: vcardFileName(lead.name), body: buildVCard(lead, project.title) };
}

/** Every lead matching the inbox's filters as one .vcf (vCards one after another), streamed page by page. */
export async function exportLeadVCards(db: Kysely<Database>, ownerId: string, projectId: string, filters: LeadFilters) {
  const project = await requireProjectRole(db, ownerId, projectId, "export");
  const { after: _ignored, ...allPages } = filters;
  async function* cards() {
    for await (const leads of iterateLeads(db, project.id, allPages)) yield leads.map((lead) => buildVCard(lead, project.title)).join("");
  }
  return { fileName: vcardFileName(`${project.title} leads`), body: Readable.from(cards()) };
}
