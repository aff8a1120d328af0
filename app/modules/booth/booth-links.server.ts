import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DomainError } from "~/modules/errors.server";
import { isBoothTokenShape, isRecordId } from "~/modules/http/id-shape";
import type { Logger } from "~/modules/logging/logger.server";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { announce, type ProjectEvents } from "~/modules/realtime/project-events.server";
import { boothPath } from "./booth-link-form";
import { PLAIN_PITCH_CODE, UNKNOWN_BOOTH_CODE_MESSAGE } from "./booth-codes";
import { DAY_MS } from "~/modules/time/units";
import { hashSingleUseToken, newSingleUseToken } from "~/modules/tokens/single-use-token.server";
import { notALeftover } from "~/modules/team/team-setups.server";

/**
 * A link as the owner sees it in the list: never its token, which exists only in the address shown once; `codeId`
 * is the code its screens show (a QR code's id, `plain`, or null for the project's default booth code).
 */
export type BoothLinkSummary = { id: string; createdAt: string; expiresAt: string; codeId: string | null };

export type NewBoothLink = BoothLinkSummary & { token: string };

/** What a booth token is for one project: a working link, one that ended (expired or revoked), or nothing of it. */
export type BoothTokenCheck = { kind: "valid"; linkId: string; expiresAt: string } | { kind: "ended" } | { kind: "unknown" };

/** Refuses a code that is not this project's (a QR code's id or `plain`); null, the default, is always fine. */
async function assertProjectCode(db: Kysely<Database>, projectId: string, codeId: string | null): Promise<void> {
  if (codeId === null || codeId === PLAIN_PITCH_CODE) return;
  const code = isRecordId(codeId) ? await db.selectFrom("qr_codes").select("id").where("id", "=", codeId).where("project_id", "=", projectId).executeTakeFirst() : undefined;
  if (!code) throw new DomainError("invalid_input", UNKNOWN_BOOTH_CODE_MESSAGE, { code: UNKNOWN_BOOTH_CODE_MESSAGE });
}

/**
 * A booth link for the owner's project: 256 random bits, base64url, working for `days` from `now`, its screens
 * showing `codeId` (null: the project's default booth code).
 */
export async function createBoothLink(
  db: Kysely<Database>,
  ownerId: string,
  projectId: string,
  input: { days: number; code: string | null },
  now = new Date(),
): Promise<NewBoothLink> {
  await requireProjectRole(db, ownerId, projectId, "edit");
  await assertProjectCode(db, projectId, input.code);
  const { token, hash } = newSingleUseToken();
  const link = {
    id: crypto.randomUUID(),
    project_id: projectId,
    token_hash: hash,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + input.days * DAY_MS).toISOString(),
    code_id: input.code,
    added_by: ownerId,
  };
  await db.insertInto("booth_links").values(link).execute();
  return { id: link.id, createdAt: link.created_at, expiresAt: link.expires_at, codeId: link.code_id, token };
}

/** Points an active link at another code; its open screens switch at once (the "booth" event). */
export async function repointBoothLink(
  deps: { db: Kysely<Database>; events: Pick<ProjectEvents, "publish">; logger: Logger },
  ownerId: string,
  projectId: string,
  input: { linkId: string; code: string | null },
  now = new Date(),
): Promise<void> {
  const { db } = deps;
  await requireProjectRole(db, ownerId, projectId, "edit");
  await assertProjectCode(db, projectId, input.code);
  const updated = await db
    .updateTable("booth_links")
    .set({ code_id: input.code })
    .where("id", "=", input.linkId)
    .where("project_id", "=", projectId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new DomainError("not_found", "Booth link not found");
  await announce(deps.events, deps.logger, { projectId, kind: "booth" });
}

/** The code a link's screens show: its own choice, or null for the project's default booth code. */
export async function readBoothLinkCode(db: Kysely<Database>, linkId: string): Promise<string | null> {
  const link = await db.selectFrom("booth_links").select("code_id").where("id", "=", linkId).executeTakeFirst();
  return link?.code_id ?? null;
}

/** Whether the booth link was made by a member since removed and waits for the owner's Keep (decision 78). */
async function isLeftOver(db: Kysely<Database>, projectId: string, linkId: string): Promise<boolean> {
  const row = await db.selectFrom("member_leftovers").select("item_id").where("project_id", "=", projectId).where("kind", "=", "booth").where("item_id", "=", linkId).executeTakeFirst();
  return row !== undefined;
}

/** The project's links that still work (not those a removed member left), the one expiring last first. */
export async function listActiveBoothLinks(db: Kysely<Database>, ownerId: string, projectId: string, now = new Date()): Promise<BoothLinkSummary[]> {
  await requireProjectRole(db, ownerId, projectId, "edit");
  const rows = await db
    .selectFrom("booth_links")
    .select(["id", "created_at", "expires_at", "code_id"])
    .where("project_id", "=", projectId)
    .where("expires_at", ">", now.toISOString())
    .where("revoked_at", "is", null)
    .where(notALeftover("booth_links", "booth"))
    .orderBy("expires_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => ({ id: row.id, createdAt: row.created_at, expiresAt: row.expires_at, codeId: row.code_id }));
}

/**
 * Ends one of the owner's links now, and tells the booth screens open with it (they stop at once); a link already
 * ended, or of another project, is not found.
 */
export async function revokeBoothLink(
  deps: { db: Kysely<Database>; events: Pick<ProjectEvents, "publish">; logger: Logger },
  ownerId: string,
  projectId: string,
  linkId: string,
  now = new Date(),
): Promise<void> {
  const { db } = deps;
  await requireProjectRole(db, ownerId, projectId, "edit");
  if (!isRecordId(linkId)) throw new DomainError("not_found", "Booth link not found");
  const revoked = await db
    .updateTable("booth_links")
    .set({ revoked_at: now.toISOString() })
    .where("id", "=", linkId)
    .where("project_id", "=", projectId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (Number(revoked.numUpdatedRows) === 0) throw new DomainError("not_found", "Booth link not found");
  // An open screen that misses this event still stops at its next heartbeat, when its stream rechecks the link.
  await announce(deps.events, deps.logger, { projectId, kind: "booth" });
}

/** The address a booth link opens (`?key=` is read once, then kept in a cookie and dropped from the address bar). */
export function boothLinkUrl(publicUrl: string, projectId: string, token: string): string {
  return `${publicUrl}${boothPath(projectId)}?key=${token}`;
}

/** Whether `token` opens this project's booth at `now`. A token of another project is unknown here. */
export async function checkBoothToken(db: Kysely<Database>, projectId: string, token: string | null, now = new Date()): Promise<BoothTokenCheck> {
  if (!isBoothTokenShape(token) || !isRecordId(projectId)) return { kind: "unknown" };
  const link = await db
    .selectFrom("booth_links")
    .select(["id", "project_id", "expires_at", "revoked_at"])
    .where("token_hash", "=", hashSingleUseToken(token))
    .executeTakeFirst();
  if (!link || link.project_id !== projectId) return { kind: "unknown" };
  if (link.revoked_at !== null || link.expires_at <= now.toISOString() || (await isLeftOver(db, projectId, link.id))) return { kind: "ended" };
  return { kind: "valid", linkId: link.id, expiresAt: link.expires_at };
}

/** Whether the link a booth stream was opened with still works (the stream rechecks on revocation and at each heartbeat). */
export async function isBoothLinkActive(db: Kysely<Database>, linkId: string, now = new Date()): Promise<boolean> {
  const link = await db.selectFrom("booth_links").select(["project_id", "expires_at", "revoked_at"]).where("id", "=", linkId).executeTakeFirst();
  return !!link && link.revoked_at === null && link.expires_at > now.toISOString() && !(await isLeftOver(db, link.project_id, linkId));
}
