import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { DomainError } from "~/modules/errors.server";
import { isRecordId } from "~/modules/http/id-shape";
import { sameLabel } from "./qr-form";

/**
 * Where printed codes live when they are re-pointed (decisions 64 and 79). A code's home is the project it was made
 * in: the first move's origin, or where it is when it never moved. Moving a code needs the role that owns both
 * ends; its home's owner may always move it back; and a code never stays in a project of someone who left its
 * home's team.
 */

export const MOVE_BACK_NOT_AWAY = "This code already opens this project";

/** The project each of these codes was made in, by code id (a code that never moved is absent). */
export async function homeProjectsOf(db: Kysely<Database>, qrCodeIds: string[]): Promise<Map<string, string>> {
  if (qrCodeIds.length === 0) return new Map();
  const moves = await db
    .selectFrom("qr_code_moves")
    .select(["qr_code_id", "from_project_id"])
    .where("qr_code_id", "in", qrCodeIds)
    .orderBy("moved_at", "desc")
    .orderBy("id", "desc")
    .execute();
  // Newest first, so the last one written for a code is its first move.
  return new Map(moves.map((move) => [move.qr_code_id, move.from_project_id]));
}

/** The project a code was made in. */
export async function homeProjectOf(db: Kysely<Database>, code: { id: string; project_id: string }): Promise<string> {
  return (await homeProjectsOf(db, [code.id])).get(code.id) ?? code.project_id;
}

/**
 * Moves a code from `fromProjectId` to `toProjectId` inside the caller's transaction and records the move. With
 * `renameOnClash`, a label the target already has gets ' (moved back)' (then a number) instead of failing: a move
 * the founder did not choose never stops on a name. Resolves false when the code was no longer there.
 */
export async function moveCode(
  trx: Kysely<Database>,
  code: { id: string; label: string },
  fromProjectId: string,
  toProjectId: string,
  now: Date,
  renameOnClash = false,
): Promise<boolean> {
  let label = code.label;
  if (renameOnClash) {
    const taken = (await trx.selectFrom("qr_codes").select("label").where("project_id", "=", toProjectId).execute()).map((row) => row.label);
    const base = code.label.slice(0, 80);
    for (let n = 1; taken.some((other) => sameLabel(other, label)); n++) label = n === 1 ? `${base} (moved back)` : `${base} (moved back ${n})`;
  }
  const moved = await trx.updateTable("qr_codes").set({ project_id: toProjectId, label }).where("id", "=", code.id).where("project_id", "=", fromProjectId).executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) return false;
  await trx
    .insertInto("qr_code_moves")
    .values({ id: crypto.randomUUID(), qr_code_id: code.id, from_project_id: fromProjectId, to_project_id: toProjectId, moved_at: now.toISOString() })
    .execute();
  return true;
}

/**
 * When `memberId` leaves (or is removed from) the team of `projectId`, inside that transaction: the codes made in
 * this project that are now in a project they own come back to it. Resolves how many came back.
 */
export async function returnCodesOnLeaving(trx: Kysely<Database>, projectId: string, memberId: string, now = new Date()): Promise<number> {
  const away = await trx
    .selectFrom("qr_codes")
    .innerJoin("projects", "projects.id", "qr_codes.project_id")
    .select(["qr_codes.id", "qr_codes.label", "qr_codes.project_id"])
    .where("projects.owner_id", "=", memberId)
    .where("qr_codes.project_id", "!=", projectId)
    .where((eb) => eb.exists(eb.selectFrom("qr_code_moves").select("qr_code_moves.id").whereRef("qr_code_moves.qr_code_id", "=", "qr_codes.id").where("qr_code_moves.from_project_id", "=", projectId)))
    .execute();
  const homes = await homeProjectsOf(trx, away.map((code) => code.id));
  let returned = 0;
  for (const code of away) {
    if (homes.get(code.id) !== projectId) continue;
    if (await moveCode(trx, code, code.project_id, projectId, now, true)) returned++;
  }
  return returned;
}

/** A code made in this project that now opens another one, as its home's QR codes page lists it. */
export type CodeAway = { id: string; label: string; projectTitle: string };

/** The codes made in `projectId` that now open another project, for its owner (other roles get none). */
export async function listCodesAway(db: Kysely<Database>, userId: string, projectId: string): Promise<CodeAway[]> {
  const project = await requireProjectRole(db, userId, projectId, "view");
  if (project.role !== "owner") return [];
  const away = await db
    .selectFrom("qr_codes")
    .innerJoin("projects", "projects.id", "qr_codes.project_id")
    .select(["qr_codes.id", "qr_codes.label", "projects.title"])
    .where("qr_codes.project_id", "!=", project.id)
    .where((eb) => eb.exists(eb.selectFrom("qr_code_moves").select("qr_code_moves.id").whereRef("qr_code_moves.qr_code_id", "=", "qr_codes.id").where("qr_code_moves.from_project_id", "=", project.id)))
    .orderBy("qr_codes.label")
    .orderBy("qr_codes.id")
    .execute();
  const homes = await homeProjectsOf(db, away.map((code) => code.id));
  return away.filter((code) => homes.get(code.id) === project.id).map((code) => ({ id: code.id, label: code.label, projectTitle: code.title }));
}

/**
 * The owner of the project a code was made in brings it back, from whichever project it opens now and whatever
 * their role there. Only its home's owner may; anyone else is told it is not found.
 */
export async function moveQrCodeBack(db: Kysely<Database>, userId: string, projectId: string, qrCodeId: string, now = new Date()): Promise<{ label: string }> {
  const project = await requireProjectRole(db, userId, projectId, "own");
  const notFound = () => new DomainError("not_found", "QR code not found");
  if (!isRecordId(qrCodeId)) throw notFound();
  const code = await db.selectFrom("qr_codes").select(["id", "label", "project_id"]).where("id", "=", qrCodeId).executeTakeFirst();
  if (!code || (await homeProjectOf(db, code)) !== project.id) throw notFound();
  if (code.project_id === project.id) throw new DomainError("conflict", MOVE_BACK_NOT_AWAY);
  return db.transaction().execute(async (trx) => {
    const fresh = await trx.selectFrom("qr_codes").select(["id", "label", "project_id"]).where("id", "=", code.id).executeTakeFirst();
    if (!fresh || fresh.project_id === project.id) throw new DomainError("conflict", MOVE_BACK_NOT_AWAY);
    await moveCode(trx, fresh, fresh.project_id, project.id, now, true);
    const moved = await trx.selectFrom("qr_codes").select("label").where("id", "=", code.id).executeTakeFirstOrThrow();
    return { label: moved.label };
  });
}
