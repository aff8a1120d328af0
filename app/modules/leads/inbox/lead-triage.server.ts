import type { ExpressionBuilder, Kysely, UpdateObject } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import { LEAD_NOT_FOUND_MESSAGE, type LeadTemperatureInput, type LeadTriageInput } from "~/modules/leads/lead-forms";

/** Sets a lead's status and private note. A lead of another project is 'not found', and nothing changes. */
export async function updateLeadTriage(db: Kysely<Database>, ownerId: string, projectId: string, input: LeadTriageInput, now = new Date()) {
  await updateTeamLead(db, ownerId, projectId, input.leadId, (eb) => ({
    status: input.status,
    note: input.note,
    triaged_at: now.toISOString(),
    // A status change is the founder's response; a note alone is not (the person hears nothing of it).
    first_response_at: eb
      .case()
      .when(eb.and([eb("first_response_at", "is", null), eb("status", "<>", input.status)]))
      .then(now.toISOString())
      .else(eb.ref("first_response_at"))
      .end(),
  }), now);
}

/**
 * Marks a person only met in person as awaiting the founder's follow-up: their response clock starts now (decision
 * 84). A lead already waiting or answered keeps its clock; a lead of another project is 'not found'.
 */
export async function markAwaitingFollowUp(db: Kysely<Database>, userId: string, projectId: string, leadId: string, now = new Date()) {
  const project = await requireProjectRole(db, userId, projectId, "triage");
  if (!isRecordId(leadId)) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE);
  const result = await db
    .updateTable("leads")
    .set({ awaiting_since: now.toISOString(), first_response_at: null })
    .where("id", "=", leadId)
    .where("project_id", "=", project.id)
    .where("awaiting_since", "is", null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    const lead = await db.selectFrom("leads").select("id").where("id", "=", leadId).where("project_id", "=", project.id).executeTakeFirst();
    if (!lead) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE);
  }
}

/** Marks a lead hot, warm or cold, or clears it (`none`). Not a response: the person hears nothing of it. */
export async function setLeadTemperature(db: Kysely<Database>, userId: string, projectId: string, input: LeadTemperatureInput, now = new Date()) {
  await updateTeamLead(db, userId, projectId, input.leadId, () => ({ temperature: input.temperature === "none" ? null : input.temperature }), now);
}

const TRIAGE_FIELDS = ["status", "temperature", "note"] as const;

/**
 * One lead of the project changed by a member whose role may triage; a lead of another project is 'not found', and
 * nothing changes. Each of status, temperature and note that the change altered is kept in the lead's history with
 * who did it (decision 61), in the same transaction.
 */
async function updateTeamLead(
  db: Kysely<Database>,
  userId: string,
  projectId: string,
  leadId: string,
  changes: (eb: ExpressionBuilder<Database, "leads">) => UpdateObject<Database, "leads">,
  now: Date,
) {
  const project = await requireProjectRole(db, userId, projectId, "triage");
  if (!isRecordId(leadId)) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE, { leadId: LEAD_NOT_FOUND_MESSAGE });
  await db.transaction().execute(async (trx) => {
    const triageOf = (from: Kysely<Database>) =>
      from.selectFrom("leads").select(TRIAGE_FIELDS).where("id", "=", leadId).where("project_id", "=", project.id).executeTakeFirst();
    const before = await triageOf(trx);
    if (!before) throw new DomainError("not_found", LEAD_NOT_FOUND_MESSAGE, { leadId: LEAD_NOT_FOUND_MESSAGE });
    await trx.updateTable("leads").set(changes).where("id", "=", leadId).execute();
    const after = (await triageOf(trx))!;
    const changed = TRIAGE_FIELDS.filter((field) => (before[field] ?? null) !== (after[field] ?? null));
    if (changed.length === 0) return;
    await trx
      .insertInto("lead_events")
      .values(changed.map((field) => ({ id: crypto.randomUUID(), project_id: project.id, lead_id: leadId, actor_id: userId, kind: field, value: after[field] ?? null, created_at: now.toISOString() })))
      .execute();
  });
}
