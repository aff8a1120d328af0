// Decision 83: a new account's address is confirmed through the link mailed at sign-up before the app mails it
// anything but that link and a password reset; accounts older than the confirmation are waived. Both databases.
import type { Kysely } from "kysely";
import pino from "pino";
import { beforeAll, expect, it } from "vitest";
import { migrateToLatest } from "~/db/migrate.server";
import type { Database } from "~/db/schema";
import type { Auth } from "~/modules/auth/auth.server";
import { CONFIRM_LINK_INVALID_MESSAGE, EMAIL_CONFIRMED_MESSAGE } from "~/modules/auth/email-confirmation-form";
import { confirmEmail, resendEmailConfirmation } from "~/modules/auth/email-confirmation.server";
import { requestPasswordReset, signIn, signUp } from "~/modules/auth/gateway.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { saveLeadAlertSettings, sendLeadAlertSummaries } from "~/modules/leads/inbox/lead-alerts.server";
import { sendTestMail, TEST_MAIL_UNCONFIRMED_MESSAGE } from "~/modules/mail/test-mail.server";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { MorningReportScheduler } from "~/modules/reports/morning-report.server";
import { recordScans } from "~/modules/scans/scans.server";
import { latestDailySlot } from "~/modules/time/zoned-slots";
import { createTestDatabase, describeEachDialect, DIALECTS } from "../support/databases";
import { createProject, createUser, testMailLinks } from "../support/fixtures";
import { browserRequest, cookieHeader, createTestAuth, freshIp, TEST_AUTH_CONFIG } from "../support/test-auth";

const logger = pino({ level: "silent" });

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

async function mailsTo(db: Kysely<Database>, to: string) {
  return db.selectFrom("mail_outbox").select(["kind", "text_body"]).where("recipient", "=", to).orderBy("created_at").orderBy("id").execute();
}

function confirmationToken(mail: { text_body: string }): string {
  const link = /http:\/\/pitch\.test\/auth\/confirm-email\?token=([A-Za-z0-9._-]+)/.exec(mail.text_body);
  if (!link) throw new Error(`no confirmation link in ${mail.text_body}`);
  return link[1]!;
}

describeEachDialect("the account's address is confirmed before it is mailed", (getDb, dialect) => {
  let auth: Auth;
  beforeAll(() => {
    auth = createTestAuth(getDb(), dialect);
  });

  /** A founder who signed up (better-auth's sign-up, as the page does) and is signed in, with a published project. */
  async function newFounder() {
    const { db } = getDb();
    const email = `founder-${crypto.randomUUID()}@example.com`;
    await signUp(auth, db, TEST_AUTH_CONFIG, browserRequest(freshIp()), { email, password: "first-password", name: "Ada", invitation: "", timeZone: "" });
    const ip = freshIp();
    const session = cookieHeader((await signIn(auth, TEST_AUTH_CONFIG, browserRequest(ip), { email, password: "first-password" })).setCookies);
    const user = (await getSessionUser(auth, browserRequest(ip, session)))!;
    const project = await createProject(db, { ownerId: user.id, title: `Harbor ${crypto.randomUUID().slice(0, 6)}` });
    return { email, user, project, request: () => browserRequest(ip, session) };
  }

  async function intro(projectId: string) {
    await submitIntro(getDb().db, testMailLinks, projectId, parse(introSchema, { name: "Bo", email: `bo-${crypto.randomUUID().slice(0, 8)}@example.com`, note: "Hello" }), { userId: null });
  }

  it("mails the confirmation at sign-up, and nothing else until the link is used: no alert, no report, no summary, no test mail", async () => {
    const { db } = getDb();
    const founder = await newFounder();
    expect(founder.user.emailConfirmed).toBe(false);
    const sent = await mailsTo(db, founder.email);
    expect(sent.map((mail) => mail.kind)).toEqual(["account-confirmation"]);
    expect(sent[0]!.text_body).toContain("The link works for 24 hours.");

    await intro(founder.project.id);
    const code = await createQrCode(db, founder.user.id, founder.project.id, { label: "Booth", eventTag: null });
    await recordScans(db, [{ projectId: founder.project.id, qrCodeId: code.id, viewerFingerprint: "viewer-a" }], undefined, new Date("2026-05-04T14:00:00Z"));
    await new MorningReportScheduler(db, testMailLinks, { hour: 9 }, logger, { clock: () => new Date("2026-05-05T09:00:30Z") }).runOnce();
    await expect(sendTestMail(db, () => ({ send: async () => ({ response: "250" }), close: () => undefined }) as never, founder.user, founder.project.id, logger)).rejects.toMatchObject({
      code: "forbidden",
      message: TEST_MAIL_UNCONFIRMED_MESSAGE,
    });
    // A password reset still reaches the address.
    await requestPasswordReset(auth, db, TEST_AUTH_CONFIG, browserRequest(freshIp()), { email: founder.email });
    expect((await mailsTo(db, founder.email)).map((mail) => mail.kind)).toEqual(["account-confirmation", "password-reset"]);

    expect(await confirmEmail(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { token: confirmationToken(sent[0]!) })).toEqual({ message: EMAIL_CONFIRMED_MESSAGE });
    expect((await getSessionUser(auth, founder.request()))!.emailConfirmed).toBe(true);
    await intro(founder.project.id);
    await recordScans(db, [{ projectId: founder.project.id, qrCodeId: code.id, viewerFingerprint: "viewer-b" }], undefined, new Date("2026-05-05T14:00:00Z"));
    await new MorningReportScheduler(db, testMailLinks, { hour: 9 }, logger, { clock: () => new Date("2026-05-06T09:00:30Z") }).runOnce();
    // The report is dated by the scheduler's clock, so the kinds are compared in any order.
    expect((await mailsTo(db, founder.email)).map((mail) => mail.kind).sort()).toEqual(["account-confirmation", "intro-alert", "morning-report", "password-reset"]);
  });

  it("refuses an altered or made-up link and confirms nothing", async () => {
    const { db } = getDb();
    const founder = await newFounder();
    const token = confirmationToken((await mailsTo(db, founder.email))[0]!);
    const altered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [altered, "not-a-token", "", "a.b.c"]) {
      await expect(confirmEmail(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { token: bad })).rejects.toMatchObject({ code: "invalid_input", message: CONFIRM_LINK_INVALID_MESSAGE });
    }
    expect((await getSessionUser(auth, founder.request()))!.emailConfirmed).toBe(false);
    await intro(founder.project.id);
    expect((await mailsTo(db, founder.email)).map((mail) => mail.kind)).toEqual(["account-confirmation"]);
  });

  it("'Send it again' mails a new link that works, three an hour per account", async () => {
    const { db } = getDb();
    const founder = await newFounder();
    const again = await resendEmailConfirmation(auth, db, TEST_AUTH_CONFIG, founder.request(), founder.user);
    expect(again.message).toBe(`We sent a new link to ${founder.email}. It works for 24 hours.`);
    await resendEmailConfirmation(auth, db, TEST_AUTH_CONFIG, founder.request(), founder.user);
    await resendEmailConfirmation(auth, db, TEST_AUTH_CONFIG, founder.request(), founder.user);
    await expect(resendEmailConfirmation(auth, db, TEST_AUTH_CONFIG, founder.request(), founder.user)).rejects.toMatchObject({ code: "rate_limited" });
    const sent = await mailsTo(db, founder.email);
    expect(sent.map((mail) => mail.kind)).toEqual(Array(4).fill("account-confirmation"));
    await confirmEmail(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { token: confirmationToken(sent[3]!) });
    expect((await getSessionUser(auth, founder.request()))!.emailConfirmed).toBe(true);
    expect(await resendEmailConfirmation(auth, db, TEST_AUTH_CONFIG, founder.request(), { ...founder.user, emailConfirmed: true })).toEqual({ message: "Your e-mail address is already confirmed." });
    expect(await mailsTo(db, founder.email)).toHaveLength(4);
  });

  it("the daily summary waits for the confirmed address too, and comes once it is confirmed", async () => {
    const { db } = getDb();
    const founder = await newFounder();
    await saveLeadAlertSettings(db, founder.user.id, founder.project.id, { introAlerts: "daily", signalAlerts: "daily" });
    await intro(founder.project.id);
    await sendLeadAlertSummaries(db, testMailLinks, latestDailySlot(new Date(Date.now() + 86_400_000), 9, "UTC"));
    expect((await mailsTo(db, founder.email)).map((mail) => mail.kind)).toEqual(["account-confirmation"]);

    await confirmEmail(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { token: confirmationToken((await mailsTo(db, founder.email))[0]!) });
    await intro(founder.project.id);
    await sendLeadAlertSummaries(db, testMailLinks, latestDailySlot(new Date(Date.now() + 2 * 86_400_000), 9, "UTC"));
    expect((await mailsTo(db, founder.email)).map((mail) => mail.kind)).toEqual(["account-confirmation", "lead-alert-summary"]);
  });
});

it.each(DIALECTS)("accounts that exist when the migration runs keep getting their mail; new ones confirm first [%s]", async (dialect) => {
  const database = await createTestDatabase(dialect, { upTo: "0041-scan-audience" });
  try {
    const now = new Date().toISOString();
    const id = crypto.randomUUID();
    await database.db
      .insertInto("users")
      .values({ id, name: "Old", email: `${id}@example.com`, email_verified: false, image: null, created_at: now, updated_at: now })
      .execute();
    await migrateToLatest(database.db.withoutPlugins());
    const newer = await createUser(database.db, { confirmed: false });
    const rows = await database.db.selectFrom("users").select(["id", "email_verified", "email_confirmation_waived"]).where("id", "in", [id, newer]).execute();
    expect(rows.find((row) => row.id === id)).toMatchObject({ email_verified: false, email_confirmation_waived: true });
    expect(rows.find((row) => row.id === newer)).toMatchObject({ email_verified: false, email_confirmation_waived: false });
  } finally {
    await database.destroy();
  }
});
