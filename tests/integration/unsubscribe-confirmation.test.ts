import { expect, it } from "vitest";
import { subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { unsubscribeSchema } from "~/modules/contacts/unsubscribe-form";
import { checkUnsubscribeConfirmation, confirmUnsubscribeByAddress, requestUnsubscribeByAddress } from "~/modules/contacts/unsubscribe.server";
import { CONFIRMATION_TTL_MS } from "~/modules/mail/address-confirmations.server";
import type { DomainError } from "~/modules/errors.server";
import { UNSUBSCRIBE_REQUEST_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject, TEST_PUBLIC_URL, testMailLinks } from "../support/fixtures";

const visitor = (viewerFingerprint: string) => ({ userId: null, identity: { viewerFingerprint, addressHash: null } });
let requesterSeq = 0;
/** A different browser on a different network each time, so only the limit a test is about can apply. */
/** An address as a visitor types it on /unsubscribe, through the form's schema (which lower-cases it). */
const typed = (email: string) => unsubscribeSchema.parse({ email: ` ${email.toUpperCase()} ` }).email;
const someone = () => ({ clientAddress: `198.51.100.${(requesterSeq += 1) % 250}`, browserKey: `browser-${crypto.randomUUID()}` });

async function follower(database: TestDatabase, title: string, email: string) {
  const project = await createProject(database.db, { title });
  await subscribeToUpdates(database.db, testMailLinks, project.id, { name: "Ada", email, consent: true }, visitor(crypto.randomUUID()));
  return project;
}

const subscribedOf = async (database: TestDatabase, email: string) =>
  (await database.db.selectFrom("contacts").select("subscribed").where("email", "=", email).execute()).map((row) => row.subscribed);

const confirmationMailsTo = (database: TestDatabase, email: string) =>
  database.db.selectFrom("mail_outbox").select(["subject", "text_body"]).where("recipient", "=", email).where("kind", "=", "unsubscribe-confirmation").execute();

/** The confirmation link's token, read from the mail as its recipient would. */
function tokenIn(text: string): string {
  const match = new RegExp(`${TEST_PUBLIC_URL}/unsubscribe\\?confirm=([A-Za-z0-9_-]+)`).exec(text);
  expect(match, text).not.toBeNull();
  return match![1]!;
}

describeEachDialect("unsubscribe by a typed address needs the address's confirmation", (getDb) => {
  it("changes nothing when the address is typed; mails it a link that unsubscribes it from every project once confirmed", async () => {
    const database = getDb();
    const email = `ada-${crypto.randomUUID()}@example.com`;
    await follower(database, "Harbor Cold Chain", email);
    await follower(database, "Lantern Grid", email);

    expect(await requestUnsubscribeByAddress(database.db, testMailLinks, someone(), typed(email))).toEqual({ mailed: true });
    expect(await subscribedOf(database, email)).toEqual([true, true]);

    const [mail] = await confirmationMailsTo(database, email);
    expect(mail!.subject).toBe("Confirm: stop e-mails from PitchQR");
    expect(mail!.text_body).toContain("Harbor Cold Chain");
    expect(mail!.text_body).toContain("Lantern Grid");
    const token = tokenIn(mail!.text_body);

    // Opening the page (or a mail scanner fetching it) changes nothing.
    expect(await checkUnsubscribeConfirmation(database.db, token)).toEqual({ status: "valid", email, projectTitles: ["Harbor Cold Chain", "Lantern Grid"] });
    expect(await subscribedOf(database, email)).toEqual([true, true]);

    expect(await confirmUnsubscribeByAddress(database.db, token)).toEqual({ status: "valid", projectTitles: ["Harbor Cold Chain", "Lantern Grid"] });
    expect(await subscribedOf(database, email)).toEqual([false, false]);
    // Single use.
    expect(await confirmUnsubscribeByAddress(database.db, token)).toEqual({ status: "used" });
    expect(await checkUnsubscribeConfirmation(database.db, token)).toEqual({ status: "used" });
  });

  it("answers an unknown address the same and mails nobody", async () => {
    const database = getDb();
    const email = `nobody-${crypto.randomUUID()}@example.com`;
    expect(await requestUnsubscribeByAddress(database.db, testMailLinks, someone(), email)).toEqual({ mailed: false });
    expect(await confirmationMailsTo(database, email)).toEqual([]);
  });

  it("refuses an expired, unknown or malformed link and changes nothing", async () => {
    const database = getDb();
    const email = `late-${crypto.randomUUID()}@example.com`;
    await follower(database, "Harbor Cold Chain", email);
    const asked = new Date("2026-01-10T10:00:00Z");
    await requestUnsubscribeByAddress(database.db, testMailLinks, someone(), email, asked);
    const token = tokenIn((await confirmationMailsTo(database, email))[0]!.text_body);
    const late = new Date(asked.getTime() + CONFIRMATION_TTL_MS + 1);

    expect(await checkUnsubscribeConfirmation(database.db, token, late)).toEqual({ status: "expired" });
    expect(await confirmUnsubscribeByAddress(database.db, token, late)).toEqual({ status: "expired" });
    expect(await confirmUnsubscribeByAddress(database.db, "A".repeat(43))).toEqual({ status: "unknown" });
    for (const malformed of ["", "x", `${token}x`, `${token.slice(0, -1)}!`, "' or 1=1 --"]) {
      expect(await confirmUnsubscribeByAddress(database.db, malformed)).toEqual({ status: "unknown" });
    }
    expect(await subscribedOf(database, email)).toEqual([true]);
    // Still good within its day.
    expect(await confirmUnsubscribeByAddress(database.db, token, new Date(asked.getTime() + 60_000))).toMatchObject({ status: "valid" });
    expect(await subscribedOf(database, email)).toEqual([false]);
  });

  it("uses a link once when two confirmations race", async () => {
    const database = getDb();
    const email = `race-${crypto.randomUUID()}@example.com`;
    await follower(database, "Harbor Cold Chain", email);
    await requestUnsubscribeByAddress(database.db, testMailLinks, someone(), email);
    const token = tokenIn((await confirmationMailsTo(database, email))[0]!.text_body);
    const outcomes = await Promise.all([confirmUnsubscribeByAddress(database.db, token), confirmUnsubscribeByAddress(database.db, token)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["used", "valid"]);
    const stats = await database.db.selectFrom("project_stats").select("subscribers").execute();
    expect(stats.every((row) => Number(row.subscribers) >= 0)).toBe(true);
  });
});

const outcome = (attempt: Promise<unknown>) =>
  attempt.then(
    () => "ok",
    (error: DomainError) => `${error.code} after ${error.retryAfterSeconds}s`,
  );

describeEachDialect("unsubscribe requests, limited", (getDb) => {
  it("refuses one network address walking a list of addresses, whatever browser it claims, and names the wait", async () => {
    const { db } = getDb();
    const results: string[] = [];
    for (let index = 0; index < 25; index += 1) {
      results.push(await outcome(requestUnsubscribeByAddress(db, testMailLinks, { clientAddress: "198.51.100.7", browserKey: `rotated-${index}` }, `walk${index}@example.com`)));
    }
    const allowed = UNSUBSCRIBE_REQUEST_LIMITS.perAddress.max;
    expect(results.slice(0, allowed)).toEqual(Array.from({ length: allowed }, () => "ok"));
    expect(new Set(results.slice(allowed))).toEqual(new Set([`rate_limited after ${UNSUBSCRIBE_REQUEST_LIMITS.perAddress.windowSeconds}s`]));
    await expect(outcome(requestUnsubscribeByAddress(db, testMailLinks, someone(), "walk0@example.com"))).resolves.toBe("ok");
  });

  it("refuses one browser after its allowance, from any network", async () => {
    const { db } = getDb();
    const results: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      results.push(await outcome(requestUnsubscribeByAddress(db, testMailLinks, { clientAddress: `203.0.113.${index}`, browserKey: "one-browser" }, `b${index}@example.com`)));
    }
    const allowed = UNSUBSCRIBE_REQUEST_LIMITS.perBrowser.max;
    expect(results.slice(0, allowed)).toEqual(Array.from({ length: allowed }, () => "ok"));
    expect(new Set(results.slice(allowed))).toEqual(new Set([`rate_limited after ${UNSUBSCRIBE_REQUEST_LIMITS.perBrowser.windowSeconds}s`]));
  });

  it("mails one target address at most its allowance, however many clients name it", async () => {
    const database = getDb();
    const email = `target-${crypto.randomUUID()}@example.com`;
    await follower(database, "Harbor Cold Chain", email);
    const results: string[] = [];
    for (let index = 0; index < 8; index += 1) results.push(await outcome(requestUnsubscribeByAddress(database.db, testMailLinks, someone(), typed(email))));
    const allowed = UNSUBSCRIBE_REQUEST_LIMITS.perEmail.max;
    expect(results.slice(0, allowed)).toEqual(Array.from({ length: allowed }, () => "ok"));
    expect(new Set(results.slice(allowed))).toEqual(new Set([`rate_limited after ${UNSUBSCRIBE_REQUEST_LIMITS.perEmail.windowSeconds}s`]));
    expect(await confirmationMailsTo(database, email)).toHaveLength(allowed);
    expect(await subscribedOf(database, email)).toEqual([true]);
  });
});
