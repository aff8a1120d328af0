import type { Kysely, Transaction } from "kysely";
import type { Database, HeldSubmissionsTable, HoldReason } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import { requireProjectRole } from "~/modules/access/project-access.server";
import type { ProjectRole } from "~/modules/access/roles";
import { HELD_NOT_FOUND_MESSAGE } from "./held-forms";

/**
 * Visitor forms held for the founder's review (decision 50): a form that trips a limit, the hidden field or the
 * speed check is kept here with what the person sent and why it was held, and counted nowhere (not a lead, a
 * subscriber, a signal, a funnel row, a booth line, a webhook, an alert or a mail) until the founder accepts it.
 * Accepting writes it as the form would have been written (`visitor-forms/held-review.server.ts`); discarding
 * deletes it.
 */

export type HeldIntent = HeldSubmissionsTable["intent"];

export type NewHeldSubmission = {
  projectId: string;
  intent: HeldIntent;
  name: string;
  email: string;
  fields: Record<string, unknown>;
  reason: HoldReason;
  reasonText: string;
  source: string;
  userId: string | null;
  browserKey: string;
  receivedAt: Date;
};


/** Keeps a held form, inside the caller's transaction (the one that claimed its idempotency key). */
export async function holdSubmission(trx: Transaction<Database>, held: NewHeldSubmission): Promise<string> {
  const id = crypto.randomUUID();
  await trx
    .insertInto("held_submissions")
    .values({
      id,
      project_id: held.projectId,
      intent: held.intent,
      name: held.name,
      email: held.email,
      submitted_fields: held.fields,
      reason: held.reason,
      reason_text: held.reasonText,
      source: held.source,
      user_id: held.userId,
      browser_key: held.browserKey,
      received_at: held.receivedAt.toISOString(),
    })
    .execute();
  return id;
}

/** When this browser's latest held form for the project came, if one came since `since`. */
export async function latestHeldFromBrowser(db: Kysely<Database>, projectId: string, browserKey: string, since: Date): Promise<Date | null> {
  const row = await db
    .selectFrom("held_submissions")
    .select("received_at")
    .where("project_id", "=", projectId)
    .where("browser_key", "=", browserKey)
    .where("received_at", ">=", since.toISOString())
    .orderBy("received_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(row.received_at) : null;
}

/** How many of a project's forms wait for review. */
export async function countHeldSubmissions(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom("held_submissions")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("project_id", "=", projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One held form as the founder reads it. */
export type HeldSubmissionView = {
  id: string;
  intent: HeldIntent;
  name: string;
  email: string;
  /** What they sent, line by line ("Note: Let's talk", "Tier: $5K–$25K"), beyond name and e-mail. */
  sent: { label: string; value: string }[];
  receivedAt: string;
  /** The QR code they came through ("Hall A · Demo Day"), "Direct link", or null when unknown. */
  code: string | null;
  reasonText: string;
};

export type HeldList = { project: { id: string; title: string; role: ProjectRole }; held: HeldSubmissionView[] };

/** The project's held forms, newest first: only its owner may read them. */
export async function listHeldSubmissions(db: Kysely<Database>, ownerId: string, projectId: string): Promise<HeldList> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  const [rows, codes, tiers] = await Promise.all([
    db.selectFrom("held_submissions").selectAll().where("project_id", "=", project.id).orderBy("received_at", "desc").orderBy("id").limit(500).execute(),
    db.selectFrom("qr_codes").select(["id", "label", "event_tag"]).where("project_id", "=", project.id).execute(),
    db.selectFrom("signal_tiers").select(["id", "range_label"]).where("project_id", "=", project.id).execute(),
  ]);
  const codeById = new Map(codes.map((code) => [code.id, code.event_tag ? `${code.label} · ${code.event_tag}` : code.label]));
  const tierById = new Map(tiers.map((tier) => [tier.id, tier.range_label]));
  return {
    project: { id: project.id, title: project.title, role: project.role },
    held: rows.map((row) => ({
      id: row.id,
      intent: row.intent,
      name: row.name,
      email: row.email,
      sent: sentLines(row.intent, row.submitted_fields, tierById),
      receivedAt: new Date(row.received_at).toISOString(),
      code: row.source === "direct" ? "Direct link" : row.source.startsWith("qr:") ? (codeById.get(row.source.slice(3)) ?? null) : null,
      reasonText: row.reason_text,
    })),
  };
}

function sentLines(intent: HeldIntent, fields: Record<string, unknown>, tierById: Map<string, string>): { label: string; value: string }[] {
  const text = (value: unknown) => (typeof value === "string" && value ? value : null);
  const lines: { label: string; value: string | null }[] = [];
  if (intent === "intro") {
    const tags: unknown[] = Array.isArray(fields.roleTags) ? fields.roleTags : [fields.roleTags];
    const roles = tags.filter((tag): tag is string => typeof tag === "string" && tag !== "");
    lines.push({ label: "Intro request", value: text(fields.note) ?? "" });
    lines.push({ label: "Roles", value: roles.length ? roles.join(", ") : null }, { label: "LinkedIn", value: text(fields.linkedinUrl) });
  } else if (intent === "subscribe") {
    lines.push({ label: "Follow updates", value: "Asked for the weekly digest" });
  } else {
    const tierId = text(fields.tierId);
    lines.push({ label: "Signal of interest", value: (tierId && tierById.get(tierId)) ?? "A tier since removed" });
    lines.push({ label: "Message", value: text(fields.message) });
    const shown = fields.showName === true || fields.showName === "on" || fields.showName === "true";
    lines.push({ label: "On the wall", value: shown ? "Name shown" : "Name not shown" });
  }
  return lines.filter((line): line is { label: string; value: string } => line.value !== null);
}

/** A held form, read to be accepted: only the project's owner may. */
export async function readHeldSubmission(db: Kysely<Database>, ownerId: string, projectId: string, heldId: string) {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  if (!isRecordId(heldId)) throw new DomainError("not_found", HELD_NOT_FOUND_MESSAGE);
  const row = await db.selectFrom("held_submissions").selectAll().where("id", "=", heldId).where("project_id", "=", project.id).executeTakeFirst();
  if (!row) throw new DomainError("not_found", HELD_NOT_FOUND_MESSAGE);
  return row;
}

/**
 * Takes a held form out of review inside the transaction that writes it as accepted, so of two founders' tabs
 * accepting it at once exactly one writes it; the other is told it is gone.
 */
export async function takeHeldSubmission(trx: Transaction<Database>, projectId: string, heldId: string): Promise<void> {
  const deleted = await trx.deleteFrom("held_submissions").where("id", "=", heldId).where("project_id", "=", projectId).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw new DomainError("not_found", HELD_NOT_FOUND_MESSAGE);
}

/** Deletes a held form for good: it was never counted, so nothing else changes. Only the project's owner may. */
export async function discardHeldSubmission(db: Kysely<Database>, ownerId: string, projectId: string, heldId: string): Promise<void> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  if (!isRecordId(heldId)) throw new DomainError("not_found", HELD_NOT_FOUND_MESSAGE);
  const deleted = await db.deleteFrom("held_submissions").where("id", "=", heldId).where("project_id", "=", project.id).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw new DomainError("not_found", HELD_NOT_FOUND_MESSAGE);
}
