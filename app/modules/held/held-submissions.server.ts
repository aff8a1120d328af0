import type { Kysely, Transaction } from "kysely";
import type { Database, HeldSubmissionsTable, HoldReason } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import { requireProjectRole } from "~/modules/access/project-access.server";
import type { ProjectRole } from "~/modules/access/roles";
import { countFormRefusals } from "~/modules/rate-limit/form-refusals.server";
import { countInWindow, HELD_FORMS_PER_PROJECT } from "~/modules/rate-limit/rate-limit.server";
import { HELD_FORM_DAYS, HELD_GROUP_GONE_MESSAGE, HELD_NOT_FOUND_MESSAGE, HELD_PAGE_SIZE, heldHourOf, type HeldDiscardLikeInput } from "./held-forms";

/**
 * Visitor forms held for the founder's review (decision 50): a form that trips a limit, the hidden field or the
 * speed check is kept here with what the person sent and why it was held, and counted nowhere (not a lead, a
 * subscriber, a signal, a funnel row, a booth line, a webhook, an alert or a mail) until the founder accepts it.
 * Accepting writes it as the form would have been written (`visitor-forms/pipeline/held-review.server.ts`); discarding
 * deletes it, one or all of one reason and hour; after 30 days it is deleted (`held-expiry.server.ts`). At most
 * HELD_FORMS_PER_PROJECT wait in a project (decision 80).
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
  /** When the person sent it, when that was before it arrived (a phone's offline time). */
  sentAt?: Date;
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
      sent_at: (held.sentAt ?? held.receivedAt).toISOString(),
    })
    .execute();
  return id;
}

/**
 * Whether a project has room for one more held form (decision 80), inside the transaction that would keep it.
 * Holds for one project take their row in `form_rate_limits` first (an upsert locks it to the end of the
 * transaction), so concurrent holds count one after another and the ceiling is exact across instances.
 */
export async function hasRoomToHold(trx: Transaction<Database>, projectId: string, now: Date): Promise<boolean> {
  await countInWindow(trx, `held:project:${projectId}`, { windowSeconds: 60 * 60 }, now.getTime());
  return (await countHeldSubmissions(trx, projectId)) < HELD_FORMS_PER_PROJECT.max;
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

/** Held forms of one reason sent in one UTC hour: what "Discard all like this" takes (decision 80). */
export type HeldGroup = { reason: HoldReason; hour: string; count: number };

export type HeldList = {
  project: { id: string; title: string; role: ProjectRole };
  /** This page's held forms, newest first, each with its group (same reason, same hour). */
  held: (HeldSubmissionView & { group: HeldGroup })[];
  /** Every held form of the project, as the lead inbox counts them. */
  total: number;
  page: number;
  pageCount: number;
  /** Forms refused beyond the ceilings on held forms in the last 30 days. */
  refused: number;
  /** "Discard all like this" asked for, to be confirmed: the form it was asked on and its group. */
  confirm: { heldId: string; group: HeldGroup } | null;
};

/**
 * The project's held forms, newest first (then by id), HELD_PAGE_SIZE a page (`page` from 1, kept within the
 * pages there are), with the true total and the forms refused beyond the ceilings; `like` names a held form whose
 * group "Discard all like this" is to confirm. Only its owner may read them.
 */
export async function listHeldSubmissions(
  db: Kysely<Database>,
  ownerId: string,
  projectId: string,
  options: { page?: number; like?: string | null } = {},
  now = new Date(),
): Promise<HeldList> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  const [total, refused] = await Promise.all([
    countHeldSubmissions(db, project.id),
    countFormRefusals(db, project.id, new Date(now.getTime() - HELD_FORM_DAYS * 24 * 3_600_000)),
  ]);
  const pageCount = Math.max(1, Math.ceil(total / HELD_PAGE_SIZE));
  const page = Math.min(pageCount, Math.max(1, Math.floor(options.page ?? 1) || 1));
  const [rows, codes, tiers] = await Promise.all([
    db
      .selectFrom("held_submissions")
      .selectAll()
      .where("project_id", "=", project.id)
      .orderBy("received_at", "desc")
      .orderBy("id", "desc")
      .limit(HELD_PAGE_SIZE)
      .offset((page - 1) * HELD_PAGE_SIZE)
      .execute(),
    db.selectFrom("qr_codes").select(["id", "label", "event_tag"]).where("project_id", "=", project.id).execute(),
    db.selectFrom("signal_tiers").select(["id", "range_label"]).where("project_id", "=", project.id).execute(),
  ]);
  const groups = new Map<string, HeldGroup>();
  const groupOf = (reason: HoldReason, receivedAt: string) => {
    const hour = heldHourOf(receivedAt);
    const key = `${reason} ${hour}`;
    if (!groups.has(key)) groups.set(key, { reason, hour, count: 0 });
    return groups.get(key)!;
  };
  for (const row of rows) groupOf(row.reason, row.received_at);
  const liked = options.like && isRecordId(options.like)
    ? await db.selectFrom("held_submissions").select(["id", "reason", "received_at"]).where("id", "=", options.like).where("project_id", "=", project.id).executeTakeFirst()
    : undefined;
  const likedGroup = liked ? groupOf(liked.reason, liked.received_at) : null;
  await Promise.all([...groups.values()].map(async (group) => (group.count = await countHeldGroup(db, project.id, group))));
  const codeById = new Map(codes.map((code) => [code.id, code.event_tag ? `${code.label} · ${code.event_tag}` : code.label]));
  const tierById = new Map(tiers.map((tier) => [tier.id, tier.range_label]));
  return {
    project: { id: project.id, title: project.title, role: project.role },
    total,
    page,
    pageCount,
    refused,
    confirm: liked && likedGroup ? { heldId: liked.id, group: likedGroup } : null,
    held: rows.map((row) => ({
      id: row.id,
      intent: row.intent,
      name: row.name,
      email: row.email,
      sent: sentLines(row.intent, row.submitted_fields, tierById),
      receivedAt: new Date(row.received_at).toISOString(),
      code: row.source === "direct" ? "Direct link" : row.source.startsWith("qr:") ? (codeById.get(row.source.slice(3)) ?? null) : null,
      reasonText: row.reason_text,
      group: groupOf(row.reason, row.received_at),
    })),
  };
}

/** How many held forms of one reason were sent in one UTC hour, `[hour, hour + 1 h)`. */
async function countHeldGroup(db: Kysely<Database>, projectId: string, group: Pick<HeldGroup, "reason" | "hour">): Promise<number> {
  const from = new Date(group.hour);
  const row = await db
    .selectFrom("held_submissions")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("project_id", "=", projectId)
    .where("reason", "=", group.reason)
    .where("received_at", ">=", from.toISOString())
    .where("received_at", "<", new Date(from.getTime() + 3_600_000).toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.count);
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

/**
 * "Discard all like this" (decision 80): deletes every held form of the project with this reason sent in this UTC
 * hour, and says how many. Only the project's owner may; a group already gone is `not_found`.
 */
export async function discardHeldLike(db: Kysely<Database>, ownerId: string, projectId: string, group: HeldDiscardLikeInput): Promise<number> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  const from = new Date(group.hour);
  const deleted = await db
    .deleteFrom("held_submissions")
    .where("project_id", "=", project.id)
    .where("reason", "=", group.reason)
    .where("received_at", ">=", from.toISOString())
    .where("received_at", "<", new Date(from.getTime() + 3_600_000).toISOString())
    .executeTakeFirst();
  const count = Number(deleted.numDeletedRows);
  if (count === 0) throw new DomainError("not_found", HELD_GROUP_GONE_MESSAGE);
  return count;
}

/** Deletes a held form for good: it was never counted, so nothing else changes. Only the project's owner may. */
export async function discardHeldSubmission(db: Kysely<Database>, ownerId: string, projectId: string, heldId: string): Promise<void> {
  const project = await requireProjectRole(db, ownerId, projectId, "settings");
  if (!isRecordId(heldId)) throw new DomainError("not_found", HELD_NOT_FOUND_MESSAGE);
  const deleted = await db.deleteFrom("held_submissions").where("id", "=", heldId).where("project_id", "=", project.id).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw new DomainError("not_found", HELD_NOT_FOUND_MESSAGE);
}
