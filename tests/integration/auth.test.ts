import { beforeAll, expect, it } from "vitest";
import type { AppConfig } from "~/config.server";
import type { Auth } from "~/modules/auth/auth.server";
import { signIn, signOut, signUp } from "~/modules/auth/gateway.server";
import { getSessionUser } from "~/modules/auth/session.server";
import type { DomainError } from "~/modules/errors.server";
import { CLIENT_IP_HEADER } from "~/modules/http/client-ip.server";
import { describeEachDialect } from "../support/databases";
import { createTestAuth } from "../support/test-auth";

const config = {
  publicUrl: "http://pitch.test",
  publicOrigin: "http://pitch.test",
  authSecret: "integration-test-secret-that-is-long-enough-0123456789",
} as AppConfig;

let ipCounter = 0;
const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

function browserRequest(ip: string, cookie?: string) {
  const headers = new Headers({ [CLIENT_IP_HEADER]: ip, "user-agent": "vitest" });
  if (cookie) headers.set("cookie", cookie);
  return new Request("http://pitch.test/auth", { method: "POST", headers });
}

/** `name=value; name2=value2` from Set-Cookie headers, as a browser would send them back. */
function cookieHeader(setCookies: string[]) {
  return setCookies.map((c) => c.split(";")[0]).join("; ");
}

describeEachDialect("sign-up, sign-in and sign-out", (getDb, dialect) => {
  let auth: Auth;
  beforeAll(() => {
    auth = createTestAuth(getDb(), dialect, config);
  });
  const email = () => `founder-${crypto.randomUUID()}@example.com`;

  it("signs up without signing in, then signs in with a fresh session each time", async () => {
    const ip = freshIp();
    const address = email();
    const created = await signUp(auth, getDb().db, config, browserRequest(ip), { email: address, password: "secret1", name: "Ada", invitation: "", timeZone: "" });
    expect(created).toMatchObject({ ok: true });
    const user = await getDb().db.selectFrom("users").selectAll().where("email", "=", address).executeTakeFirstOrThrow();
    expect(user.name).toBe("Ada");
    expect(await getDb().db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);

    const first = await signIn(auth, config, browserRequest(ip), { email: address, password: "secret1" });
    const second = await signIn(auth, config, browserRequest(ip), { email: address, password: "secret1" });
    const firstCookie = cookieHeader(first.setCookies);
    expect(firstCookie).not.toBe(cookieHeader(second.setCookies));
    expect(first.setCookies.join("\n")).toMatch(/HttpOnly/i);
    expect(first.setCookies.join("\n")).toMatch(/SameSite=Lax/i);

    const sessionUser = await getSessionUser(auth, browserRequest(ip, firstCookie));
    expect(sessionUser).toMatchObject({ id: user.id, email: address });
  });

  it("ends the session on the server at sign-out, so the old cookie stops working", async () => {
    const ip = freshIp();
    const address = email();
    await signUp(auth, getDb().db, config, browserRequest(ip), { email: address, password: "secret1", name: "", invitation: "", timeZone: "" });
    const signedIn = await signIn(auth, config, browserRequest(ip), { email: address, password: "secret1" });
    const cookie = cookieHeader(signedIn.setCookies);
    expect(await getSessionUser(auth, browserRequest(ip, cookie))).not.toBeNull();

    expect(await signOut(auth, config, browserRequest(ip, cookie))).toMatchObject({ ok: true });
    expect(await getSessionUser(auth, browserRequest(ip, cookie))).toBeNull();
  });

  it("refuses a second account for the same e-mail and a wrong password, with the provider's message", async () => {
    const ip = freshIp();
    const address = email();
    await signUp(auth, getDb().db, config, browserRequest(ip), { email: address, password: "secret1", name: "", invitation: "", timeZone: "" });
    const again = signUp(auth, getDb().db, config, browserRequest(ip), { email: address, password: "other12", name: "", invitation: "", timeZone: "" });
    await expect(again).rejects.toMatchObject({ code: "conflict", message: "User already exists. Use another email." });
    const users = await getDb().db.selectFrom("users").select("id").where("email", "=", address).execute();
    expect(users).toHaveLength(1);

    const wrong = signIn(auth, config, browserRequest(ip), { email: address, password: "wrong-password" });
    await expect(wrong).rejects.toMatchObject({ status: 401, message: expect.stringMatching(/invalid email or password/i) });
  });

  it("limits sign-in attempts per client address, in the database, across auth instances", async () => {
    const ip = freshIp();
    // A refusal is the DomainError the page answers with its status (and Retry-After).
    const attempt = (instance: Auth, from = ip) =>
      signIn(instance, config, browserRequest(from), { email: "nobody@example.com", password: "wrong-password" }).then(
        () => null,
        (error: DomainError) => error,
      );
    for (let i = 0; i < 10; i += 1) expect(await attempt(auth)).toMatchObject({ status: 401 });
    const refused = await attempt(auth);
    expect(refused).toMatchObject({ status: 429, message: "Too many requests. Please try again later." });
    // The wait is passed on (the page answers it as Retry-After): at most the rule's 60 s window.
    expect(refused?.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused?.retryAfterSeconds).toBeLessThanOrEqual(60);

    // A restarted process (a new auth instance on the same database) still remembers the count.
    const restarted = createTestAuth(getDb(), dialect, config);
    expect(await attempt(restarted)).toMatchObject({ status: 429 });
    // Another client address is not affected.
    expect(await attempt(restarted, freshIp())).toMatchObject({ status: 401 });
    const rows = await getDb().db.selectFrom("rate_limits").selectAll().execute();
    expect(rows.some((row) => row.key.includes(ip))).toBe(true);
  });
});
