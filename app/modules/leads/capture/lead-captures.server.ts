import crypto from "node:crypto";
import type { ExpressionBuilder, Kysely, OnConflictDatabase, OnConflictTables } from "kysely";
import type { Database } from "~/db/schema";
import { isUniqueViolation } from "~/db/normalize.server";
import { DomainError } from "~/modules/errors.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DIRECT, firstKnownSource, nameSource, readCodeNames, scanSource } from "~/modules/analytics/sources.server";
import { PLAIN_PITCH_CODE, UNKNOWN_BOOTH_CODE_MESSAGE } from "~/modules/booth/booth-codes";
import { CAPTURE_KEY_REUSED_MESSAGE, linkedInHandle, phoneDigits, type CaptureInput, type CaptureResult } from "./capture-form";
import { enforceCaptureLimits } from "~/modules/leads/outreach-limits.server";

/** The fields that make a capture what it is, canonical: the same capture sent again has the same fingerprint. */
function captureFingerprint(input: CaptureInput): string {
  const fields = [input.codeId, input.name, input.email, input.linkedinUrl, input.temperature, input.note];
  // Only a capture with a phone has it among its fields: a key saved before phones were asked for keeps its fingerprint.
  if (input.phone) fields.push(input.phone);
  return crypto.createHash("sha256").update(JSON.stringify(fields)).digest("hex");
}

/**
 * What tells this person met again without an e-mail (decision 92): their LinkedIn profile (`linkedin:in/jane-doe`),
 * else their phone's digits (`phone:4915112345678`); null when the capture names neither.
 */
export function metKeyOf(input: Pick<CaptureInput, "linkedinUrl" | "phone">): string | null {
  const handle = input.linkedinUrl ? linkedInHandle(input.linkedinUrl) : null;
  if (handle) return `linkedin:${handle}`;
  const digits = input.phone ? phoneDigits(input.phone) : null;
  return digits ? `phone:${digits}` : null;
}

const resultMessage = (name: string, merged: boolean) => (merged ? `${name} added to their lead` : `${name} added`);

/** The key's capture, if one was saved: the same request answers its result again; another request is refused. */
async function answerIfRecorded(db: Kysely<Database>, projectId: string, input: CaptureInput, fingerprint: string): Promise<CaptureResult | null> {
  const row = await db
    .selectFrom("lead_captures")
    .select(["id", "lead_id", "lead_outcome", "name", "request_fingerprint"])
    .where("project_id", "=", projectId)
    .where("idempotency_key", "=", input.key)
    .executeTakeFirst();
  if (!row) return null;
  if (row.request_fingerprint !== fingerprint) throw new DomainError("unprocessable", CAPTURE_KEY_REUSED_MESSAGE);
  const merged = row.lead_outcome === "merged";
  return { leadId: row.lead_id, captureId: row.id, merged, message: resultMessage(row.name, merged) };
}

/** The source a capture is credited to: the code the booth showed (one of this project's), or the plain link. */
async function captureSourceOf(db: Kysely<Database>, projectId: string, codeId: string): Promise<string> {
  if (codeId === PLAIN_PITCH_CODE) return DIRECT;
  const code = await db.selectFrom("qr_codes").select("id").where("id", "=", codeId).where("project_id", "=", projectId).executeTakeFirst();
  if (!code) throw new DomainError("invalid_input", UNKNOWN_BOOTH_CODE_MESSAGE, { codeId: UNKNOWN_BOOTH_CODE_MESSAGE });
  return scanSource(code.id);
}

/**
 * 'Add a person' (decision 62): a person the founder met, saved into the project's inbox. Merged by
 * e-mail, or by LinkedIn profile or phone for a person met without one (decision 92): the project's lead for them is
 * updated (moved to the top, the temperature set when one was picked, a first source filled in), else created. The
 * capture itself is a row of its own, with who added them and the code the booth showed. Its key is the device's
 * UUID: the same key with the same fields answers the first result and writes nothing; with other fields it is
 * refused (`unprocessable`), and nothing changes. A new capture past the member's or the project's hourly limit
 * (decision 77) is refused (`rate_limited`) and saves nothing.
 */
export async function captureLead(db: Kysely<Database>, userId: string, projectId: string, input: CaptureInput, now = new Date()): Promise<CaptureResult> {
  // Owner, co-founder and staff add people they met; a viewer may not (decision 61).
  const project = await requireProjectRole(db, userId, projectId, "triage");
  const fingerprint = captureFingerprint(input);
  const recorded = await answerIfRecorded(db, project.id, input, fingerprint);
  if (recorded) return recorded;
  const source = await captureSourceOf(db, project.id, input.codeId);
  const at = now.toISOString();
  try {
    return await db.transaction().execute(async (trx) => {
      await enforceCaptureLimits(trx, userId, project.id, now);
      const lead = await upsertCapturedLead(trx, project.id, input, source, at);
      const merged = !lead.created;
      const captureId = crypto.randomUUID();
      // A second request with this key waits here until the first commits, then fails: its lead update rolls back.
      await trx
        .insertInto("lead_captures")
        .values({
          id: captureId,
          project_id: project.id,
          lead_id: lead.id,
          idempotency_key: input.key,
          request_fingerprint: fingerprint,
          lead_outcome: merged ? "merged" : "created",
          source,
          added_by: userId,
          name: input.name,
          email: input.email,
          phone: input.phone,
          linkedin_url: input.linkedinUrl,
          temperature: input.temperature,
          note: input.note,
          created_at: at,
        })
        .execute();
      return { leadId: lead.id, captureId, merged, message: resultMessage(input.name, merged) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const winner = await answerIfRecorded(db, project.id, input, fingerprint);
      if (winner) return winner;
    }
    throw error;
  }
}

/**
 * The project's lead for the person captured, updated (moved to the top, the temperature set when one was picked, a
 * first source filled in) or created. With an e-mail: the lead for that address; else a lead met without an
 * e-mail under the same key, which gets the address now; else a new lead. Without an e-mail: the lead under the
 * capture's key (decision 92). A lead gets the capture's key when it has none and no other lead holds it.
 */
async function upsertCapturedLead(trx: Kysely<Database>, projectId: string, input: CaptureInput, source: string, at: string): Promise<{ id: string; created: boolean }> {
  const metKey = metKeyOf(input);
  const newId = crypto.randomUUID();
  const insert = trx.insertInto("leads").values({
    id: newId,
    project_id: projectId,
    email: input.email,
    met_key: input.email ? null : metKey,
    name: input.name,
    first_seen_at: at,
    last_activity_at: at,
    source,
    note: null,
    triaged_at: null,
    // Meeting them is neither a question nor an answer: a person only met in person waits for nobody until the
    // founder marks them as awaiting a follow-up (decision 84), and a visitor met keeps waiting.
    awaiting_since: null,
    first_response_at: null,
    temperature: input.temperature,
  });
  let id: string;
  if (input.email) {
    const byEmail = await trx.selectFrom("leads").select("id").where("project_id", "=", projectId).where("email", "=", input.email).executeTakeFirst();
    const byKey =
      !byEmail && metKey
        ? await trx.selectFrom("leads").select("id").where("project_id", "=", projectId).where("met_key", "=", metKey).where("email", "is", null).executeTakeFirst()
        : undefined;
    if (byKey) {
      await trx
        .updateTable("leads")
        .set({ email: input.email, last_activity_at: at, source: firstKnownSource("leads", source), ...(input.temperature ? { temperature: input.temperature } : {}) })
        .where("id", "=", byKey.id)
        .execute();
      id = byKey.id;
    } else {
      const lead = await insert
        .onConflict((oc) => oc.columns(["project_id", "email"]).doUpdateSet((eb) => mergeInto(eb, source, input)))
        .returning(["id"])
        .executeTakeFirstOrThrow();
      id = lead.id;
    }
  } else {
    const lead = await insert
      .onConflict((oc) => oc.columns(["project_id", "met_key"]).doUpdateSet((eb) => mergeInto(eb, source, input)))
      .returning(["id"])
      .executeTakeFirstOrThrow();
    id = lead.id;
  }
  if (metKey) {
    await trx
      .updateTable("leads")
      .set({ met_key: metKey })
      .where("id", "=", id)
      .where("met_key", "is", null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom("leads as holder").select("holder.id").where("holder.project_id", "=", projectId).where("holder.met_key", "=", metKey))))
      .execute();
  }
  return { id, created: id === newId };
}

function mergeInto(eb: ExpressionBuilder<OnConflictDatabase<Database, "leads">, OnConflictTables<"leads">>, source: string, input: CaptureInput) {
  return {
    last_activity_at: eb.ref("excluded.last_activity_at"),
    source: firstKnownSource("leads", source),
    ...(input.temperature ? { temperature: eb.ref("excluded.temperature") } : {}),
  };
}

/** A capture as a line of the lead's history: where they were met, by whom, and the founder's line. */
export type MetInPerson = { at: string; event: string; addedBy: string; note: string | null; linkedinUrl: string | null; phone: string | null };

/** The captures of these leads, by lead id, newest first; the code named as it is now (decision 54). */
export async function capturesOf(db: Kysely<Database>, projectId: string, leadIds: string[], codeNames?: ReadonlyMap<string, string>): Promise<Map<string, MetInPerson[]>> {
  const byLead = new Map<string, MetInPerson[]>();
  if (leadIds.length === 0) return byLead;
  const [rows, names] = await Promise.all([
    db
      .selectFrom("lead_captures")
      .leftJoin("users", "users.id", "lead_captures.added_by")
      .select(["lead_captures.lead_id", "lead_captures.created_at", "lead_captures.source", "lead_captures.note", "lead_captures.linkedin_url", "lead_captures.phone", "users.name as added_by_name", "users.email as added_by_email"])
      .where("lead_captures.project_id", "=", projectId)
      .where("lead_captures.lead_id", "in", leadIds)
      .orderBy("lead_captures.created_at", "desc")
      .orderBy("lead_captures.id", "desc")
      .execute(),
    codeNames ?? readCodeNames(db, projectId),
  ]);
  for (const row of rows) {
    const item: MetInPerson = {
      at: row.created_at,
      event: nameSource(row.source, names).name,
      // A member who gave no name is named by their e-mail; one whose account is gone, as such.
      addedBy: row.added_by_name?.trim() || row.added_by_email || "a former member",
      note: row.note,
      linkedinUrl: row.linkedin_url,
      phone: row.phone,
    };
    byLead.set(row.lead_id, [...(byLead.get(row.lead_id) ?? []), item]);
  }
  return byLead;
}

