import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { assertOwner } from "~/modules/projects/founder-projects.server";
import type { LeadFilters } from "./lead-forms";
import { getLead, iterateLeads } from "./leads.server";
import { buildVCard, vcardFileName } from "./vcard";

/** One lead's vCard, for its owner only. */
export async function leadVCard(db: Kysely<Database>, ownerId: string, projectId: string, leadId: string) {
  const { project, lead } = await getLead(db, ownerId, projectId, leadId);
  return { fileName: vcardFileName(lead.name), body: buildVCard(lead, project.title) };
}

/** Every lead matching the inbox's filters as one .vcf (vCards one after another), streamed page by page. */
export async function exportLeadVCards(db: Kysely<Database>, ownerId: string, projectId: string, filters: LeadFilters) {
  const project = await assertOwner(db, ownerId, projectId);
  const { after: _ignored, ...allPages } = filters;
  async function* cards() {
    for await (const leads of iterateLeads(db, project.id, allPages)) yield leads.map((lead) => buildVCard(lead, project.title)).join("");
  }
  return { fileName: vcardFileName(`${project.title} leads`), body: Readable.from(cards()) };
}
