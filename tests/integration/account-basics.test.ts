// Account basics: the password reset (better-auth's flow, its mail through our outbox) and the operator's
// SIGNUP policy with invitation links, on both databases.
import { afterEach, beforeAll, expect, it, vi } from "vitest";
import type { AppConfig } from "~/config.server";
import type { Auth } from "~/modules/auth/auth.server";
import { RESET_LINK_INVALID_MESSAGE } from "~/modules/auth/auth-form";
import {
  checkPasswordResetToken,
  PASSWORD_RESET_SENT_MESSAGE,
  requestPasswordReset,
  resetPassword,
  signIn,
  signUp,
} from "~/modules/auth/gateway.server";
import {
  checkInvitation,
  createInvitation,
  INVITATION_ENDED_MESSAGE,
  INVITATION_REQUIRED_MESSAGE,
  SIGNUP_CLOSED_MESSAGE,
} from "~/modules/auth/invitations.server";
import { getSessionUser } from "~/modules/auth/session.server";
import type { DomainError } from "~/modules/errors.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { browserRequest, cookieHeader, createTestAuth, freshIp, TEST_AUTH_CONFIG } from "../support/test-auth";

const email = (prefix = "founder") => `${prefix}-${crypto.randomUUID()}@example.com`;
const failure = (promise: Promise<unknown>) => promise.then(() => null, (error: DomainError) => error);

afterEach(() => {
  vi.useRealTimers();
});

async function createAccount(auth: Auth, database: TestDatabase, address = email(), password = "first-password") {
  await signUp(auth, database.db, TEST_AUTH_CONFIG, browserRequest(freshIp()), { email: address, password, name: "Ada", invitation: "", timeZone: "" });
  const user = await database.db.selectFrom("users").select("id").where("email", "=", address).executeTakeFirstOrThrow();
  return { id: user.id, email: address, password };
}

async function resetMails(database: TestDatabase, to: string) {
  return database.db.selectFrom("mail_outbox").select(["subject", "text_body", "html_body"]).where("recipient", "=", to).where("kind", "=", "password-reset").execute();
}

function tokenOf(mail: { text_body: string }): string {
  const link = /http:\/\/pitch\.test\/auth\/reset-password\?token=([A-Za-z0-9]+)/.exec(mail.text_body);
  if (!link) throw new Error(`no reset link in ${mail.text_body}`);
  return link[1]!;
}

async function signsIn(auth: Auth, address: string, password: string): Promise<boolean> {
  return signIn(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { email: address, password }).then(
    () => true,
    () => false,
  );
}

describeEachDialect("password reset", (getDb, dialect) => {
  let auth: Auth;
  beforeAll(() => {
    auth = createTestAuth(getDb(), dialect);
  });

  async function askForReset(address: string, ip = freshIp()) {
    return requestPasswordReset(auth, getDb().db, TEST_AUTH_CONFIG, browserRequest(ip), { email: address });
  }

  it("mails a single-use link to our reset page; the token is stored only as a hash", async () => {
    const account = await createAccount(auth, getDb());
    expect(await askForReset(account.email)).toEqual({ message: PASSWORD_RESET_SENT_MESSAGE });
    const mails = await resetMails(getDb(), account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Reset your PitchQR password");
    expect(mails[0]!.text_body).toContain("The link works once, for 60 minutes.");
    const token = tokenOf(mails[0]!);
    const stored = await getDb().db.selectFrom("verifications").select(["identifier", "value", "expires_at"]).where("value", "=", account.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.identifier).not.toContain(token);
    // Expires within the hour.
    expect(Date.parse(stored[0]!.expires_at) - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
    expect(await checkPasswordResetToken(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), token)).toBe("valid");
  });

  it("sets the new password, ends every session of the account, and the link fails a second time", async () => {
    const account = await createAccount(auth, getDb());
    const ip = freshIp();
    const signedIn = await signIn(auth, TEST_AUTH_CONFIG, browserRequest(ip), { email: account.email, password: account.password });
    const oldSession = cookieHeader(signedIn.setCookies);
    expect(await getSessionUser(auth, browserRequest(ip, oldSession))).not.toBeNull();

    await askForReset(account.email);
    const token = tokenOf((await resetMails(getDb(), account.email))[0]!);
    await resetPassword(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { token, password: "new-password" });

    expect(await getSessionUser(auth, browserRequest(ip, oldSession))).toBeNull();
    expect(await getDb().db.selectFrom("sessions").select("id").where("user_id", "=", account.id).execute()).toEqual([]);
    expect(await signsIn(auth, account.email, account.password)).toBe(false);
    expect(await signsIn(auth, account.email, "new-password")).toBe(true);

    // Used: refused with the clear message, and the password stays the one just set.
    expect(await checkPasswordResetToken(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), token)).toBe("invalid");
    const again = await failure(resetPassword(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { token, password: "third-password" }));
    expect(again).toMatchObject({ code: "invalid_input", message: RESET_LINK_INVALID_MESSAGE });
    expect(await signsIn(auth, account.email, "third-password")).toBe(false);
    expect(await signsIn(auth, account.email, "new-password")).toBe(true);
  });

  it("ends every other reset link of the account once one is used, older and newer alike", async () => {
    const account = await createAccount(auth, getDb());
    const other = await createAccount(auth, getDb());
    await askForReset(account.email);
    await askForReset(account.email);
    await askForReset(other.email);
    const [older, newer] = (await resetMails(getDb(), account.email)).map(tokenOf);
    const othersToken = tokenOf((await resetMails(getDb(), other.email))[0]!);

    await resetPassword(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { token: newer!, password: "new-password" });

    expect(await checkPasswordResetToken(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), older!)).toBe("invalid");
    const stale = await failure(resetPassword(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { token: older!, password: "stale-password" }));
    expect(stale).toMatchObject({ code: "invalid_input", message: RESET_LINK_INVALID_MESSAGE });
    expect(await signsIn(auth, account.email, "stale-password")).toBe(false);
    expect(await signsIn(auth, account.email, "new-password")).toBe(true);
    expect(await getDb().db.selectFrom("verifications").select("id").where("value", "=", account.id).execute()).toEqual([]);
    // Another account's link is its own.
    expect(await checkPasswordResetToken(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), othersToken)).toBe("valid");
  });

  it("refuses a link after its hour, and changes nothing", async () => {
    const account = await createAccount(auth, getDb());
    await askForReset(account.email);
    const token = tokenOf((await resetMails(getDb(), account.email))[0]!);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60 * 60 * 1000 + 1_000 });
    expect(await checkPasswordResetToken(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), token)).toBe("invalid");
    const late = await failure(resetPassword(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { token, password: "late-password" }));
    expect(late).toMatchObject({ code: "invalid_input", message: RESET_LINK_INVALID_MESSAGE });
    vi.useRealTimers();
    expect(await signsIn(auth, account.email, "late-password")).toBe(false);
    expect(await signsIn(auth, account.email, account.password)).toBe(true);
  });

  it.each([
    ["unknown", "A".repeat(24)],
    ["malformed", "../../sign-out"],
    ["empty", ""],
    ["too long", "a".repeat(25)],
  ])("refuses the %s token with the same message", async (_label, token) => {
    const account = await createAccount(auth, getDb());
    expect(await checkPasswordResetToken(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), token)).toBe("invalid");
    const refused = await failure(resetPassword(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { token, password: "other-password" }));
    expect(refused).toMatchObject({ code: "invalid_input", message: RESET_LINK_INVALID_MESSAGE });
    expect(await signsIn(auth, account.email, account.password)).toBe(true);
  });

  it("answers an unknown address exactly as a known one, and mails nobody", async () => {
    const nobody = email("nobody");
    expect(await askForReset(nobody)).toEqual({ message: PASSWORD_RESET_SENT_MESSAGE });
    expect(await resetMails(getDb(), nobody)).toEqual([]);
  });

  it("refuses a flood for one address with Retry-After, whoever asks: at most three mails an hour", async () => {
    const account = await createAccount(auth, getDb());
    for (let i = 0; i < 3; i += 1) await askForReset(account.email);
    const refused = await failure(askForReset(account.email));
    expect(refused).toMatchObject({ code: "rate_limited", status: 429 });
    expect(refused?.retryAfterSeconds).toBeGreaterThan(0);
    expect(await resetMails(getDb(), account.email)).toHaveLength(3);
    // An unknown address is counted alike, so the refusal tells nothing about accounts.
    const nobody = email("nobody");
    for (let i = 0; i < 3; i += 1) await askForReset(nobody);
    expect(await failure(askForReset(nobody))).toMatchObject({ code: "rate_limited" });
  });

  it("refuses a flood from one client address across many addresses with Retry-After", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i += 1) await askForReset(email("walk"), ip);
    const refused = await failure(askForReset(email("walk"), ip));
    expect(refused).toMatchObject({ code: "rate_limited", status: 429 });
    expect(refused?.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused?.retryAfterSeconds).toBeLessThanOrEqual(600);
  });
});

describeEachDialect("who may sign up (SIGNUP)", (getDb, dialect) => {
  let auth: Auth;
  beforeAll(() => {
    auth = createTestAuth(getDb(), dialect);
  });
  const policy = (signup: AppConfig["signup"]) => ({ ...TEST_AUTH_CONFIG, signup }) as AppConfig;
  const signUpWith = (config: AppConfig, address: string, invitation = "") =>
    signUp(auth, getDb().db, config, browserRequest(freshIp()), { email: address, password: "secret123", name: "", invitation, timeZone: "" });
  const userCount = async (address: string) => (await getDb().db.selectFrom("users").select("id").where("email", "=", address).execute()).length;

  it("closed: every sign-up is refused on the server and makes no account; existing founders still sign in", async () => {
    const founder = await createAccount(auth, getDb());
    const address = email("closed");
    expect(await failure(signUpWith(policy("closed"), address))).toMatchObject({ code: "forbidden", status: 403, message: SIGNUP_CLOSED_MESSAGE });
    expect(await userCount(address)).toBe(0);
    expect(await signsIn(auth, founder.email, founder.password)).toBe(true);
  });

  it("invite: no link, an unknown or malformed one is refused; a founder's link admits one account, once", async () => {
    const founder = await createAccount(auth, getDb());
    const invite = policy("invite");
    const first = email("invited");
    expect(await failure(signUpWith(invite, first))).toMatchObject({ code: "forbidden", message: INVITATION_REQUIRED_MESSAGE });
    expect(await failure(signUpWith(invite, first, "A".repeat(43)))).toMatchObject({ code: "forbidden", message: INVITATION_ENDED_MESSAGE });
    expect(await failure(signUpWith(invite, first, "not a token"))).toMatchObject({ code: "forbidden", message: INVITATION_ENDED_MESSAGE });
    expect(await userCount(first)).toBe(0);

    const invitation = await createInvitation(getDb().db, founder.id);
    expect(Date.parse(invitation.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3_600_000);
    const stored = await getDb().db.selectFrom("signup_invitations").selectAll().where("invited_by", "=", founder.id).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(invitation.token);
    expect(await checkInvitation(getDb().db, invitation.token)).toBe("valid");

    await signUpWith(invite, first, invitation.token);
    const user = await getDb().db.selectFrom("users").select("id").where("email", "=", first).executeTakeFirstOrThrow();
    const used = await getDb().db.selectFrom("signup_invitations").select(["used_at", "used_by"]).where("invited_by", "=", founder.id).executeTakeFirstOrThrow();
    expect(used.used_by).toBe(user.id);
    expect(used.used_at).not.toBeNull();
    expect(await checkInvitation(getDb().db, invitation.token)).toBe("ended");

    const second = email("second");
    expect(await failure(signUpWith(invite, second, invitation.token))).toMatchObject({ code: "forbidden", message: INVITATION_ENDED_MESSAGE });
    expect(await userCount(second)).toBe(0);
  });

  it("invite: a link past its 7 days is refused", async () => {
    const founder = await createAccount(auth, getDb());
    const invitation = await createInvitation(getDb().db, founder.id, new Date(Date.now() - 7 * 24 * 3_600_000 - 1_000));
    expect(await checkInvitation(getDb().db, invitation.token)).toBe("ended");
    const address = email("late");
    expect(await failure(signUpWith(policy("invite"), address, invitation.token))).toMatchObject({ code: "forbidden", message: INVITATION_ENDED_MESSAGE });
    expect(await userCount(address)).toBe(0);
  });

  it("invite: a sign-up that fails (the address is taken) leaves the link working for the person it was meant for", async () => {
    const founder = await createAccount(auth, getDb());
    const invitation = await createInvitation(getDb().db, founder.id);
    expect(await failure(signUpWith(policy("invite"), founder.email, invitation.token))).toMatchObject({ code: "conflict" });
    expect(await checkInvitation(getDb().db, invitation.token)).toBe("valid");
    const address = email("meant");
    await signUpWith(policy("invite"), address, invitation.token);
    expect(await userCount(address)).toBe(1);
  });

  it("invite: two sign-ups racing with one link make one account", async () => {
    const founder = await createAccount(auth, getDb());
    const invitation = await createInvitation(getDb().db, founder.id);
    const [a, b] = [email("race-a"), email("race-b")];
    const results = await Promise.allSettled([signUpWith(policy("invite"), a, invitation.token), signUpWith(policy("invite"), b, invitation.token)]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect((await userCount(a)) + (await userCount(b))).toBe(1);
  });

  it("limits how many invitation links one founder makes a day", async () => {
    const founder = await createAccount(auth, getDb());
    for (let i = 0; i < 20; i += 1) await createInvitation(getDb().db, founder.id);
    expect(await failure(createInvitation(getDb().db, founder.id))).toMatchObject({ code: "rate_limited", status: 429 });
  });
});

