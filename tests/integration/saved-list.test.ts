import { expect, it } from "vitest";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { DomainError } from "~/modules/errors.server";
import { validate } from "~/modules/forms/validation";
import { SAVED_LIST_MAIL_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import { emailSavedListSchema } from "~/modules/saved/saved-list-form";
import { checkSavedListConfirmation, checkSavedListStop, confirmSavedListMail, emailSavedList, stopSavedListMail } from "~/modules/saved/saved-list-mail.server";
import { CONFIRMATION_TTL_MS } from "~/modules/mail/address-confirmations.server";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { SAVED_LIST_MESSAGES } from "~/modules/saved/saved-list-rules";
import { recordPitchSave } from "~/modules/saved/saves.server";
import { recordScans } from "~/modules/scans/scans.server";
import { describeEachDialect } from "../support/databases";
import { createProject, testMailLinks } from "../support/fixtures";

const viewer = (viewerFingerprint: string) => ({ identity: { viewerFingerprint, addressHash: null }, clientAddress: "192.0.2.10" });

/** A browser that has confirmed no address, on a network of its own. */
const requester = (browserKey: string) => ({ browserKey, clientAddress: `203.0.113.${browserKey.length % 250}`, confirmedAddress: null });

const mailsTo = (db: Kysely<Database>, email: string) =>
  db.selectFrom("mail_outbox").select(["kind", "subject", "text_body", "html_body", "mail_headers"]).where("recipient", "=", email).orderBy("created_at").execute();

/** The token of a link in a mail's text, read as its recipient would. */
function linkToken(text: string, path: string): string {
  const match = new RegExp(`${path.replace(/\//g, "\\/")}\\?token=([A-Za-z0-9_-]+)`).exec(text);
  expect(match, text).not.toBeNull();
  return match![1]!;
}

function parseList(input: unknown) {
  const result = validate(emailSavedListSchema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

describeEachDialect("the investor's saved list", (getDb) => {
  it("counts one save per viewer, per event, and never a viewer the door did not count", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const suffix = project.id.slice(0, 6);
    const codes = { berlin: `berlin${suffix}`, badge: `badge${suffix}` };
    await db
      .insertInto("qr_codes")
      .values([
        { id: codes.berlin, project_id: project.id, label: "Booth", event_tag: "Demo Day Berlin" },
        { id: codes.badge, project_id: project.id, label: "Badge", event_tag: null },
      ])
      .execute();
    await recordScans(db, [
      { projectId: project.id, qrCodeId: codes.berlin, viewerFingerprint: "ada" },
      { projectId: project.id, qrCodeId: codes.berlin, viewerFingerprint: "bo" },
      { projectId: project.id, qrCodeId: codes.badge, viewerFingerprint: "cy" },
      { projectId: project.id, qrCodeId: null, viewerFingerprint: "di" },
    ]);

    expect(await recordPitchSave(db, viewer("ada"), { projectId: project.id, qrCodeId: codes.berlin })).toEqual({ counted: true, via: "Demo Day Berlin" });
    // The same visitor saving again (another tap, a script replaying the beacon) counts once.
    expect(await recordPitchSave(db, viewer("ada"), { projectId: project.id, qrCodeId: codes.berlin })).toEqual({ counted: true, via: "Demo Day Berlin" });
    await recordPitchSave(db, viewer("ada"), { projectId: project.id, qrCodeId: null });
    await recordPitchSave(db, viewer("bo"), { projectId: project.id, qrCodeId: codes.berlin });
    expect(await recordPitchSave(db, viewer("cy"), { projectId: project.id, qrCodeId: codes.badge })).toEqual({ counted: true, via: "Badge" });
    expect(await recordPitchSave(db, viewer("di"), { projectId: project.id, qrCodeId: null })).toEqual({ counted: true, via: "Direct" });
    // A browser the page door never counted (a script that never loaded the page) is not counted.
    expect(await recordPitchSave(db, viewer("stranger"), { projectId: project.id, qrCodeId: codes.berlin })).toEqual({ counted: false, via: "Demo Day Berlin" });

    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect(analytics.totalSaves).toBe(4);
    expect(Object.fromEntries(analytics.funnel.map((row) => [row.label, row.saves]))).toEqual({ Booth: 2, Badge: 1, "Direct link": 1 });
    expect(await db.selectFrom("pitch_saves").select("viewer_fingerprint").where("project_id", "=", project.id).execute()).toHaveLength(4);
  });

  it("refuses a save of a draft or unknown pitch, and names a code of another project Direct", async () => {
    const { db } = getDb();
    const draft = await createProject(db, { status: "draft" });
    const project = await createProject(db);
    const foreign = `frgn${draft.id.slice(0, 6)}`;
    await db.insertInto("qr_codes").values({ id: foreign, project_id: draft.id, label: "Elsewhere", event_tag: "Other Expo" }).execute();
    await recordScans(db, [{ projectId: project.id, qrCodeId: null, viewerFingerprint: "ada" }]);
    expect((await refusal(recordPitchSave(db, viewer("ada"), { projectId: draft.id, qrCodeId: null }))).code).toBe("not_found");
    expect((await refusal(recordPitchSave(db, viewer("ada"), { projectId: "no-such-project", qrCodeId: null }))).code).toBe("not_found");
    expect(await recordPitchSave(db, viewer("ada"), { projectId: project.id, qrCodeId: foreign })).toEqual({ counted: true, via: "Direct" });
  });

  it("asks an address this browser never confirmed to confirm, with none of the founders' text; the confirmed link sends the list", async () => {
    const { db } = getDb();
    const first = await createProject(db, { title: "Harbor Cold Chain" });
    const second = await createProject(db, { title: "Tidal <Grid>" });
    const draft = await createProject(db, { status: "draft", title: "Secret Draft" });
    const email = `list-${first.id.slice(0, 8)}@example.com`;
    const contactsBefore = await db.selectFrom("contacts").select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();

    const input = parseList({ email: email.toUpperCase(), slugs: [second.slug, draft.slug, first.slug, "no-such-pitch", second.slug] });
    expect(await emailSavedList(db, testMailLinks, requester(`browser-${first.id}`), input)).toEqual({ status: "confirm" });

    const [confirmation, ...others] = await mailsTo(db, email);
    expect(others).toEqual([]);
    expect(confirmation!.kind).toBe("saved-list-confirmation");
    expect(confirmation!.subject).toBe("Confirm your address to get your saved pitches");
    expect(confirmation!.text_body).toContain("a list of 2 saved pitches");
    for (const founderText of ["Harbor", "Tidal", "Solar vaccine fridges"]) expect(confirmation!.text_body).not.toContain(founderText);
    const token = linkToken(confirmation!.text_body, "/list-mail/confirm");
    expect(await checkSavedListConfirmation(db, token)).toEqual({ status: "valid", email, pitchCount: 2 });
    expect(await mailsTo(db, email)).toHaveLength(1);

    expect(await confirmSavedListMail(db, testMailLinks, token)).toEqual({ status: "valid", email, sent: 2 });
    const list = (await mailsTo(db, email)).find((mail) => mail.kind === "saved-list")!;
    expect(list.subject).toBe("Your saved pitches (2 pitches)");
    const links = [...list.text_body.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
    expect(links.slice(0, 2)).toEqual([testMailLinks.pitchUrl(second.slug), testMailLinks.pitchUrl(first.slug)]);
    expect(links[2]).toMatch(/\/list-mail\/stop\?token=/);
    expect(list.text_body).toContain("> Harbor Cold Chain\n> Solar vaccine fridges");
    expect(list.text_body).not.toContain("Secret Draft");
    expect(list.html_body).toContain("Tidal &lt;Grid&gt;");
    expect(list.html_body).not.toMatch(/<img|\?qr=|utm_/i);
    expect(list.mail_headers).toEqual({ "List-Unsubscribe": `<${links[2]}>` });
    const contactsAfter = await db.selectFrom("contacts").select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    expect(Number(contactsAfter.count)).toBe(Number(contactsBefore.count));

    // The link works once.
    expect(await confirmSavedListMail(db, testMailLinks, token)).toEqual({ status: "used" });
    expect(await mailsTo(db, email)).toHaveLength(2);
    // From the browser that confirmed it, the next list goes straight out.
    const confirmedBrowser = { ...requester(`browser-${first.id}`), confirmedAddress: email };
    expect(await emailSavedList(db, testMailLinks, confirmedBrowser, parseList({ email, slugs: [first.slug] }))).toEqual({ status: "sent", sent: 1 });
    expect((await mailsTo(db, email)).filter((mail) => mail.kind === "saved-list")).toHaveLength(2);
  });

  it("refuses an expired, unknown or malformed confirmation link and sends nothing", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const email = `late-${project.id.slice(0, 8)}@example.com`;
    const asked = new Date("2026-03-02T10:00:00Z");
    await emailSavedList(db, testMailLinks, requester("late"), parseList({ email, slugs: [project.slug] }), asked);
    const token = linkToken((await mailsTo(db, email))[0]!.text_body, "/list-mail/confirm");
    const late = new Date(asked.getTime() + CONFIRMATION_TTL_MS + 1);
    expect(await checkSavedListConfirmation(db, token, late)).toEqual({ status: "expired" });
    expect(await confirmSavedListMail(db, testMailLinks, token, late)).toEqual({ status: "expired" });
    for (const bad of ["", "A".repeat(43), `${token}x`, "<script>"]) expect(await confirmSavedListMail(db, testMailLinks, bad)).toEqual({ status: "unknown" });
    expect((await mailsTo(db, email)).map((mail) => mail.kind)).toEqual(["saved-list-confirmation"]);
  });

  it("is no relay: one network rotating browsers and recipients gets only confirmations, then refusals with a wait", async () => {
    const { db } = getDb();
    const founder = await createProject(db, { title: "Verify your bank account now", slug: `phish-${crypto.randomUUID().slice(0, 8)}` });
    const outcomes: string[] = [];
    for (let index = 0; index < 40; index += 1) {
      const attempt = emailSavedList(db, testMailLinks, { browserKey: `rotated-${index}`, clientAddress: "198.51.100.66", confirmedAddress: null }, parseList({ email: `stranger${index}@example.com`, slugs: [founder.slug] }));
      outcomes.push(await attempt.then((outcome) => outcome.status, (error: DomainError) => `${error.code} ${error.retryAfterSeconds}`));
    }
    const allowed = SAVED_LIST_MAIL_LIMITS.confirmationsPerAddress.max;
    expect(outcomes.slice(0, allowed)).toEqual(Array.from({ length: allowed }, () => "confirm"));
    expect(new Set(outcomes.slice(allowed))).toEqual(new Set([`rate_limited ${SAVED_LIST_MAIL_LIMITS.confirmationsPerAddress.windowSeconds}`]));
    const queued = await db.selectFrom("mail_outbox").select(["kind", "text_body", "html_body", "subject"]).where("recipient", "like", "stranger%@example.com").execute();
    expect(queued).toHaveLength(allowed);
    for (const mail of queued) {
      expect(mail.kind).toBe("saved-list-confirmation");
      expect(`${mail.subject}${mail.text_body}${mail.html_body}`).not.toContain("Verify your bank");
    }
  });

  it("stops every saved-list mail to an address that said so: strangers get the same answer, its own browser is told", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const email = `stop-${project.id.slice(0, 8)}@example.com`;
    await emailSavedList(db, testMailLinks, requester("asker"), parseList({ email, slugs: [project.slug] }));
    const stopToken = linkToken((await mailsTo(db, email))[0]!.text_body, "/list-mail/stop");
    expect(await checkSavedListStop(db, stopToken)).toEqual({ status: "valid", email });
    expect(await stopSavedListMail(db, stopToken)).toEqual({ status: "valid", email });
    expect(await stopSavedListMail(db, stopToken)).toEqual({ status: "valid", email });

    expect(await emailSavedList(db, testMailLinks, requester("stranger"), parseList({ email, slugs: [project.slug] }))).toEqual({ status: "confirm" });
    const stopped = await refusal(emailSavedList(db, testMailLinks, { ...requester("owner"), confirmedAddress: email }, parseList({ email, slugs: [project.slug] })));
    expect([stopped.code, stopped.message]).toEqual(["invalid_input", SAVED_LIST_MESSAGES.stopped]);
    expect(await mailsTo(db, email)).toHaveLength(1);
    expect(await stopSavedListMail(db, "not-a-token")).toEqual({ status: "unknown" });
  });

  it("sends nothing for a list with no published pitch, and stops at each limit with its message", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const draft = await createProject(db, { status: "draft" });
    const email = `limits-${project.id.slice(0, 8)}@example.com`;
    // Each request from a network of its own that no other test uses, so only the limits under test can refuse it.
    let network = 0;
    const from = (browser: string) => ({ browserKey: `${browser}-${project.id}`, clientAddress: `198.18.0.${(network += 1)}`, confirmedAddress: email });

    const none = await refusal(emailSavedList(db, testMailLinks, from("a"), parseList({ email, slugs: [draft.slug] })));
    expect([none.code, none.message]).toEqual(["invalid_input", SAVED_LIST_MESSAGES.noneFound]);

    // Per recipient: 3 an hour, whichever browser asks.
    for (let sent = 0; sent < SAVED_LIST_MAIL_LIMITS.perEmail.max; sent += 1) {
      await emailSavedList(db, testMailLinks, from(`browser${sent}`), parseList({ email, slugs: [project.slug] }));
    }
    const perEmail = await refusal(emailSavedList(db, testMailLinks, from("another"), parseList({ email, slugs: [project.slug] })));
    expect([perEmail.code, perEmail.message]).toEqual(["rate_limited", SAVED_LIST_MAIL_LIMITS.perEmail.message]);

    // Per browser: 5 an hour, whatever the addresses.
    for (let sent = 0; sent < SAVED_LIST_MAIL_LIMITS.perBrowser.max; sent += 1) {
      await emailSavedList(db, testMailLinks, from("busy"), parseList({ email: `busy${sent}-${email}`, slugs: [project.slug] }));
    }
    const perBrowser = await refusal(emailSavedList(db, testMailLinks, from("busy"), parseList({ email: `busy-last-${email}`, slugs: [project.slug] })));
    expect([perBrowser.code, perBrowser.message]).toEqual(["rate_limited", SAVED_LIST_MAIL_LIMITS.perBrowser.message]);

    const queued = await db.selectFrom("mail_outbox").select("recipient").where("kind", "like", "saved-list%").where("recipient", "like", `%${email}`).execute();
    expect(queued).toHaveLength(SAVED_LIST_MAIL_LIMITS.perEmail.max + SAVED_LIST_MAIL_LIMITS.perBrowser.max);
  });
});

// A database of its own: the ceiling counts every request of the instance.
describeEachDialect("the saved list's confirmations across the instance", (getDb) => {
  it("has a ceiling across the whole instance for confirmations, whatever the networks", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const at = new Date();
    const overall = SAVED_LIST_MAIL_LIMITS.confirmationsOverall.max;
    for (let index = 0; index < overall; index += 1) {
      await emailSavedList(db, testMailLinks, { browserKey: `b${index}`, clientAddress: `10.1.${index >> 8}.${index & 255}`, confirmedAddress: null }, parseList({ email: `o${index}@example.com`, slugs: [project.slug] }), at);
    }
    const refused = await refusal(
      emailSavedList(db, testMailLinks, { browserKey: "fresh", clientAddress: "203.0.113.200", confirmedAddress: null }, parseList({ email: "last@example.com", slugs: [project.slug] }), at),
    );
    expect([refused.code, refused.message, refused.retryAfterSeconds]).toEqual(["rate_limited", SAVED_LIST_MAIL_LIMITS.confirmationsOverall.message, SAVED_LIST_MAIL_LIMITS.confirmationsOverall.windowSeconds]);
  });

});
