import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { isUniqueViolation } from "~/db/normalize.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import { EMAIL_TAKEN_MESSAGE, LEAD_NOT_FOUND_MESSAGE, type LeadEmailInput } from "~/modules/leads/lead-forms";

export const LEAD_HAS_EMAIL_MESSAGE = "This lead already has an e-mail";

/**
 * 'Add an e-mail to reply' (decision 92): a person met in person without an e-mail gets one, so the team can reply.
 * The roles that may reply may add it (decision 61's `triage`); a viewer may not, anyone off the team finds no
 * project. An address another lead of the project has is refused (`conflict`): one lead per address (decision 54),
 * and that lead is the one to answer. A lead that has an e-mail keeps it.
 */
export async function addLeadEmail(db: Kysely<Database>, userId: string, projectId: string, input: LeadEmailInput): Promise<void> {
  const project = await requireProjectRole(db, userId, projectId, "triage");
  const lead = isRecordId(input.leadId)
    ? await db.selectFrom("leads").select(["id", "email"]).where("id", "=", input.leadId).where("project_id", "=", project.id).executeTakeFirst()
    : undefined;
  if (!lead) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE);
  if (lead.email !== null) {
    if (lead.email === input.email) return;
    throw new DomainError("conflict", LEAD_HAS_EMAIL_MESSAGE, { email: LEAD_HAS_EMAIL_MESSAGE });
  }
  const taken = await db.selectFrom("leads").select("id").where("project_id", "=", project.id).where("email", "=", input.email).executeTakeFirst();
  if (taken) throw new DomainError("conflict", EMAIL_TAKEN_MESSAGE, { email: EMAIL_TAKEN_MESSAGE });
  try {
    const result = await db.updateTable("leads").set({ email: input.email }).where("id", "=", lead.id).where("email", "is", null).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new DomainError("conflict", LEAD_HAS_EMAIL_MESSAGE, { email: LEAD_HAS_EMAIL_MESSAGE });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError("conflict", EMAIL_TAKEN_MESSAGE, { email: EMAIL_TAKEN_MESSAGE });
    throw error;
  }
}
