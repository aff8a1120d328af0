import { redirect } from "react-router";
import type { Auth } from "./auth.server";
import { founderTimeZone } from "~/modules/time/founder-zone";
import { authPathFor } from "./return-to";

/**
 * `timeZone` is the zone every date and bucket on this founder's screens is in; `timeZoneSet` says whether they chose or
 * sent one. `emailConfirmed`: the app may mail the account's address (confirmed, or waived for an older account; decision 83).
 */
export type SessionUser = { id: string; email: string; name: string; timeZone: string; timeZoneSet: boolean; emailConfirmed: boolean };

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;

/** Whether a Cookie header carries a session at all (signed in, or an expired session to check). */
export function hasSessionCookie(cookieHeader: string | null | undefined): boolean {
  return !!cookieHeader && SESSION_COOKIE.test(cookieHeader);
}

export function getSessionUser(auth: Auth, request: Request): Promise<SessionUser | null> {
  return getSessionUserByCookie(auth, request.headers.get("cookie"));
}

/** The signed-in user of a Cookie header (for the HTTP layers that answer before React Router). */
export async function getSessionUserByCookie(auth: Auth, cookieHeader: string | null | undefined): Promise<SessionUser | null> {
  // Most requests are anonymous visitors: no cookie, no session lookup (and no better-auth request context).
  if (!hasSessionCookie(cookieHeader)) return null;
  const session = await auth.api.getSession({ headers: new Headers({ cookie: cookieHeader ?? "" }) });
  if (!session) return null;
  const stored = session.user.timeZone ?? null;
  const emailConfirmed = session.user.emailVerified || session.user.emailConfirmationWaived === true;
  return { id: session.user.id, email: session.user.email, name: session.user.name, timeZone: founderTimeZone(stored), timeZoneSet: stored !== null, emailConfirmed };
}

/** For pages only a signed-in user may see: a signed-out visitor goes to /auth and comes back after. */
export async function requireSessionUser(auth: Auth, request: Request, url: URL): Promise<SessionUser> {
  const user = await getSessionUser(auth, request);
  if (user) return user;
  throw redirect(authPathFor(`${url.pathname}${url.search}`));
}
