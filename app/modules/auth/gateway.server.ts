import type { Kysely } from "kysely";
import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/schema";
import { DomainError, type DomainErrorCode } from "~/modules/errors.server";
import { CLIENT_IP_HEADER } from "~/modules/http/client-ip.server";
import { isPasswordResetTokenShape } from "~/modules/http/id-shape";
import { consumeRateLimit, PASSWORD_RESET_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import type { Auth } from "./auth.server";
import { RESET_LINK_INVALID_MESSAGE, type ForgotPasswordInput, type ResetPasswordInput, type SignInInput, type SignUpInput } from "./auth-form";
import { admitInvitedSignUp, completeInvitation, invitedAddress, releaseInvitation, SIGNUP_CLOSED_MESSAGE } from "./invitations.server";
import { RESET_PASSWORD_PATH } from "./password-reset.server";
import { keepDetectedTimeZone } from "./founder-time-zone.server";

/** A call better-auth accepted: the cookies to set, and the user it was about. A refusal throws a DomainError. */
export type AuthOutcome = { ok: true; setCookies: string[]; userId: string | null };

/** better-auth's refusals, as the domain's error codes; any other status is unexpected (logged, generic message). */
const REFUSALS: Partial<Record<number, DomainErrorCode>> = {
  400: "invalid_input",
  401: "unauthenticated",
  404: "not_found",
  409: "conflict",
  422: "conflict",
  429: "rate_limited",
};

const FORWARDED_HEADERS = ["cookie", "user-agent", CLIENT_IP_HEADER] as const;

type AuthAnswer = { response: Response; payload: { message?: unknown; code?: unknown; user?: { id?: unknown } } | null };

/**
 * Sign-in, sign-up, sign-out and the password reset go through better-auth's HTTP handler rather than its direct
 * API, so its rate limiter and session rotation apply exactly as they would to a browser calling it. The
 * request's origin was already checked by the app (see origin.server.ts), so it is stated here as ours.
 */
export async function askAuth(auth: Auth, config: AppConfig, request: Request, path: string, body?: unknown): Promise<AuthAnswer> {
  const headers = new Headers({ origin: config.publicOrigin });
  if (body !== undefined) headers.set("content-type", "application/json");
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  const init: RequestInit = body === undefined ? { method: "GET", headers, redirect: "manual" } : { method: "POST", headers, body: JSON.stringify(body) };
  const response = await auth.handler(new Request(`${config.publicUrl}/api/auth${path}`, init));
  const payload = (await response.json().catch(() => null)) as AuthAnswer["payload"];
  return { response, payload };
}

/** better-auth's refusal as a DomainError (its message, and its limiter's wait as Retry-After); anything unexpected throws. */
export function refusal(path: string, { response, payload }: AuthAnswer): Error {
  const message = typeof payload?.message === "string" && payload.message ? payload.message : "An error occurred";
  const code = REFUSALS[response.status];
  if (!code) return new Error(`better-auth answered ${response.status} on ${path}: ${message}`);
  // better-auth's limiter names the wait in X-Retry-After; the page passes it on as Retry-After.
  const retryAfter = Number(response.headers.get("x-retry-after"));
  return new DomainError(code, message, {}, code === "rate_limited" && retryAfter > 0 ? retryAfter : undefined);
}

async function callAuthEndpoint(auth: Auth, config: AppConfig, request: Request, path: string, body: unknown): Promise<AuthOutcome> {
  const answer = await askAuth(auth, config, request, path, body);
  if (!answer.response.ok) throw refusal(path, answer);
  const userId = typeof answer.payload?.user?.id === "string" ? answer.payload.user.id : null;
  return { ok: true, setCookies: answer.response.headers.getSetCookie(), userId };
}

export function signIn(auth: Auth, config: AppConfig, request: Request, input: SignInInput) {
  return callAuthEndpoint(auth, config, request, "/sign-in/email", { email: input.email, password: input.password });
}

export const DUPLICATE_EMAIL_MESSAGE = "User already exists. Use another email.";

/**
 * The one way an account is made. The operator's SIGNUP policy is enforced here, before better-auth is asked:
 * `closed` refuses every sign-up, `invite` needs an invitation link that still works: a founder's (claimed for this
 * sign-up, given back if it fails) or a team invitation, for the address it invites.
 *
 * better-auth answers a sign-up for a registered e-mail with a synthetic success (no account is created)
 * when auto sign-in is off. The product promises a clear message instead, so the answer is checked against
 * the database. This runs after better-auth's rate limiter, so it does not open a faster way to probe e-mails.
 */
export async function signUp(auth: Auth, db: Kysely<Database>, config: AppConfig, request: Request, input: SignUpInput): Promise<AuthOutcome> {
  if (config.signup === "closed") throw new DomainError("forbidden", SIGNUP_CLOSED_MESSAGE);
  const invitationId = config.signup === "invite" ? await admitInvitedSignUp(db, input.invitation, input.email) : null;
  try {
    const response = await callAuthEndpoint(auth, config, request, "/sign-up/email", {
      email: input.email,
      password: input.password,
      name: input.name,
    });
    const created = await db.selectFrom("users").select("id").where("id", "=", response.userId ?? "").executeTakeFirst();
    if (!created) throw new DomainError("conflict", DUPLICATE_EMAIL_MESSAGE);
    if (invitationId) await completeInvitation(db, invitationId, created.id);
    await keepDetectedTimeZone(db, created.id, input.timeZone);
    return response;
  } catch (error) {
    if (invitationId) await releaseInvitation(db, invitationId);
    throw error;
  }
}

/**
 * After a sign-up from a team invitation's link, for the address it invites: the new account is signed in and goes
 * straight to the join page's button (decision 85), rather than to the Sign In form and the address a second time.
 * Null for any other sign-up, which signs in as usual.
 */
export async function signInToJoinTeam(auth: Auth, db: Kysely<Database>, config: AppConfig, request: Request, input: SignUpInput): Promise<{ outcome: AuthOutcome; joinPath: string } | null> {
  const invited = await invitedAddress(db, input.invitation);
  if (!invited || invited !== input.email.toLowerCase()) return null;
  const outcome = await signIn(auth, config, request, { email: input.email, password: input.password });
  return { outcome, joinPath: `/team/join?token=${encodeURIComponent(input.invitation)}` };
}

export const PASSWORD_RESET_SENT_MESSAGE =
  "If an account uses that address, we sent it a link to choose a new password. The link works once, for one hour.";

/**
 * "Forgot password?": better-auth makes the single-use token (stored hashed) and calls `sendResetPassword`, which
 * queues the mail (see password-reset.server.ts). The answer is the same whether or not the address has an account;
 * requests are limited per target address here (counted for every address alike, so a refusal tells nothing) and per
 * client address by better-auth's limiter, both refused with Retry-After.
 */
export async function requestPasswordReset(auth: Auth, db: Kysely<Database>, config: AppConfig, request: Request, input: ForgotPasswordInput): Promise<{ message: string }> {
  await consumeRateLimit(db, `password-reset:email:${input.email}`, PASSWORD_RESET_LIMITS.perEmail);
  await callAuthEndpoint(auth, config, request, "/request-password-reset", { email: input.email });
  return { message: PASSWORD_RESET_SENT_MESSAGE };
}

/** Whether a reset link's token still works, asked of better-auth's own check (its reset-link callback). */
export async function checkPasswordResetToken(auth: Auth, config: AppConfig, request: Request, token: string | null): Promise<"valid" | "invalid"> {
  if (!isPasswordResetTokenShape(token)) return "invalid";
  const path = `/reset-password/${token}?callbackURL=${encodeURIComponent(RESET_PASSWORD_PATH)}`;
  const answer = await askAuth(auth, config, request, path);
  if (answer.response.status !== 302) throw refusal(path, answer);
  const location = new URL(answer.response.headers.get("location") ?? "", config.publicUrl);
  return location.searchParams.get("token") === token && !location.searchParams.has("error") ? "valid" : "invalid";
}

/**
 * Sets a new password with a reset link's token: better-auth consumes the token (single use) and ends every session
 * of the account in the same transaction. An unknown, used, expired or malformed token changes nothing.
 */
export async function resetPassword(auth: Auth, config: AppConfig, request: Request, input: ResetPasswordInput): Promise<{ message: string }> {
  if (!isPasswordResetTokenShape(input.token)) throw new DomainError("invalid_input", RESET_LINK_INVALID_MESSAGE);
  const answer = await askAuth(auth, config, request, "/reset-password", { token: input.token, newPassword: input.password });
  if (answer.response.ok) return { message: "Your password is changed, and every device that was signed in is signed out. Sign in with the new password." };
  if (answer.payload?.code === "INVALID_TOKEN" || answer.payload?.code === "USER_NOT_FOUND") throw new DomainError("invalid_input", RESET_LINK_INVALID_MESSAGE);
  throw refusal("/reset-password", answer);
}

export function signOut(auth: Auth, config: AppConfig, request: Request) {
  return callAuthEndpoint(auth, config, request, "/sign-out", {});
}
