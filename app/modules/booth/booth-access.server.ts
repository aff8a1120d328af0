import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Auth } from "~/modules/auth/auth.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { isRecordId } from "~/modules/http/id-shape";
import { findProjectAccess } from "~/modules/access/project-access.server";
import { roleAllows } from "~/modules/access/roles";
import { boothPath } from "./booth-link-form";
import { checkBoothToken } from "./booth-links.server";
import type { BoothViewer } from "./booth.server";

/** The cookie a staff device keeps its booth token in, scoped to that one booth's path (screen and stream). */
export const BOOTH_COOKIE = "pitchqr_booth";
const BOOTH_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${BOOTH_COOKIE}=([^;]*)`);

export function boothTokenFromCookie(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  return BOOTH_COOKIE_VALUE.exec(cookieHeader)?.[1] ?? null;
}

/**
 * Keeps a booth token on the device until the link expires: HttpOnly (no script reads it), SameSite=Strict (no
 * other site's request carries it), and sent only to this project's booth screen and stream.
 */
export function boothCookie(projectId: string, token: string, expiresAt: string, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  return `${BOOTH_COOKIE}=${token}; Path=${boothPath(projectId)}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

export function clearedBoothCookie(projectId: string, secure: boolean): string {
  return `${BOOTH_COOKIE}=; Path=${boothPath(projectId)}; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/**
 * Who is asking for this booth: a link's token in the address (`?key=`, first open) wins; then a team member
 * signed in whose role allows the booth; then the token the device kept in its cookie. "none" means no token at all (the caller asks for a
 * session, as other owner pages do); "ended" and "unknown" are a token that opens nothing.
 */
export type BoothAccess =
  /** `newToken.ownerId`: a booth link opened makes the device the project's team's (decision 52). */
  | { kind: "viewer"; viewer: BoothViewer; newToken: { token: string; expiresAt: string; ownerId: string } | null }
  | { kind: "ended" | "unknown" | "none" };

export async function resolveBoothAccess(deps: { db: Kysely<Database>; auth: Auth }, request: Request, projectId: string, key: string | null): Promise<BoothAccess> {
  if (!isRecordId(projectId)) return { kind: "unknown" };
  if (key !== null) {
    const check = await checkBoothToken(deps.db, projectId, key);
    if (check.kind !== "valid") return { kind: check.kind };
    const project = await deps.db.selectFrom("projects").select("owner_id").where("id", "=", projectId).executeTakeFirstOrThrow();
    return { kind: "viewer", viewer: { kind: "link", linkId: check.linkId }, newToken: { token: key, expiresAt: check.expiresAt, ownerId: project.owner_id } };
  }
  const user = await getSessionUser(deps.auth, request);
  if (user && (await mayOpenBooth(deps.db, user.id, projectId))) return { kind: "viewer", viewer: { kind: "member", userId: user.id }, newToken: null };
  const kept = boothTokenFromCookie(request.headers.get("cookie"));
  if (kept === null) return { kind: "none" };
  const check = await checkBoothToken(deps.db, projectId, kept);
  return check.kind === "valid" ? { kind: "viewer", viewer: { kind: "link", linkId: check.linkId }, newToken: null } : { kind: check.kind };
}

async function mayOpenBooth(db: Kysely<Database>, userId: string, projectId: string): Promise<boolean> {
  const access = await findProjectAccess(db, userId, projectId);
  return access !== null && roleAllows(access.role, "booth");
}
