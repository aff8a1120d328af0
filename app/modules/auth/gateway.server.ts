import type { Kysely } from "kysely";
import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/schema";
import { DomainError, type DomainErrorCode } from "~/modules/errors.server";
import { CLIENT_IP_HEADER } from "~/modules/http/client-ip.server";
import type { Auth } from "./auth.server";
import type { SignInInput, SignUpInput } from "./auth-form";

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

/**
 * Sign-in, sign-up and sign-out go through better-auth's HTTP handler rather than its direct API, so
 * its rate limiter and session rotation apply exactly as they would to a browser calling it. The
 * request's origin was already checked by the app (see origin.server.ts), so it is stated here as ours.
 */
async function callAuthEndpoint(auth: Auth, config: AppConfig, request: Request, path: string, body: unknown): Promise<AuthOutcome> {
  const headers = new Headers({ "content-type": "application/json", origin: config.publicOrigin });
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  const response = await auth.handler(
    new Request(`${config.publicUrl}/api/auth${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
  const payload = (await response.json().catch(() => null)) as { message?: unknown; user?: { id?: unknown } } | null;
  if (response.ok) {
    const userId = typeof payload?.user?.id === "string" ? payload.user.id : null;
    return { ok: true, setCookies: response.headers.getSetCookie(), userId };
  }
  const message = typeof payload?.message === "string" && payload.message ? payload.message : "An error occurred";
  const code = REFUSALS[response.status];
  if (!code) throw new Error(`better-auth answered ${response.status} on ${path}: ${message}`);
  // better-auth's limiter names the wait in X-Retry-After; the page passes it on as Retry-After.
  const retryAfter = Number(response.headers.get("x-retry-after"));
  throw new DomainError(code, message, {}, code === "rate_limited" && retryAfter > 0 ? retryAfter : undefined);
}

export function signIn(auth: Auth, config: AppConfig, request: Request, input: SignInInput) {
  return callAuthEndpoint(auth, config, request, "/sign-in/email", { email: input.email, password: input.password });
}

export const DUPLICATE_EMAIL_MESSAGE = "User already exists. Use another email.";

/**
 * better-auth answers a sign-up for a registered e-mail with a synthetic success (no account is created)
 * when auto sign-in is off. The product promises a clear message instead, so the answer is checked against
 * the database. This runs after better-auth's rate limiter, so it does not open a faster way to probe e-mails.
 */
export async function signUp(auth: Auth, db: Kysely<Database>, config: AppConfig, request: Request, input: SignUpInput): Promise<AuthOutcome> {
  const response = await callAuthEndpoint(auth, config, request, "/sign-up/email", {
    email: input.email,
    password: input.password,
    name: input.name,
  });
  const created = await db.selectFrom("users").select("id").where("id", "=", response.userId ?? "").executeTakeFirst();
  if (!created) throw new DomainError("conflict", DUPLICATE_EMAIL_MESSAGE);
  return response;
}

export function signOut(auth: Auth, config: AppConfig, request: Request) {
  return callAuthEndpoint(auth, config, request, "/sign-out", {});
}
