import { expect, it } from "vitest";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { DomainError } from "~/modules/errors.server";
import { validate } from "~/modules/forms/validation";
import { SAVED_LIST_MAIL_LIMITS } from "~/modules/rate-limit/rate-limit.server";
import { emailSavedListSchema } from "~/modules/saved/saved-list-form";
import { emailSavedList } from "~/modules/saved/saved-list-mail.server";
import { SAVED_LIST_MESSAGES } from "~/modules/saved/saved-list-rules";
import { recordPitchSave } from "~/modules/saved/saves.server";
import { recordScans } from "~/modules/scans/scans.server";
import { describeEachDialect } from "../support/databases";
import { createProject, testMailLinks } from "../support/fixtures";

const viewer = (viewerFingerprint: string) => ({ identity: { viewerFingerprint, addressHash: null }, clientAddress: "192.0.2.10" });

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

  it("e-mails the published pitches from the server's own data, once, with plain links and nothing else stored", async () => {
    const { db } = getDb();
    const first = await createProject(db, { title: "Harbor Cold Chain" });
    const second = await createProject(db, { title: "Tidal <Grid>" });
    const draft = await createProject(db, { status: "draft", title: "Secret Draft" });
    const email = `list-${first.id.slice(0, 8)}@example.com`;
    const contactsBefore = await db.selectFrom("contacts").select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();

    const input = parseList({ email: email.toUpperCase(), slugs: [second.slug, draft.slug, first.slug, "no-such-pitch", second.slug] });
    expect(await emailSavedList(db, testMailLinks, { browserKey: `browser-${first.id}`, clientAddress: "203.0.113.7" }, input)).toEqual({ sent: 2 });

    const mails = await db.selectFrom("mail_outbox").selectAll().where("recipient", "=", email).execute();
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.kind).toBe("saved-list");
    expect(mail.subject).toBe("Your saved pitches (2 pitches)");
    const links = [...mail.text_body.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
    expect(links).toEqual([testMailLinks.pitchUrl(second.slug), testMailLinks.pitchUrl(first.slug)]);
    expect(mail.text_body).toContain("Solar vaccine fridges");
    expect(mail.text_body).not.toContain("Secret Draft");
    expect(mail.html_body).toContain("Tidal &lt;Grid&gt;");
    expect(mail.html_body).not.toMatch(/<img|\?qr=|utm_|unsubscribe/i);
    expect(mail.mail_headers).toEqual({});
    const contactsAfter = await db.selectFrom("contacts").select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    expect(Number(contactsAfter.count)).toBe(Number(contactsBefore.count));
  });

  it("sends nothing for a list with no published pitch, and stops at each limit with its message", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const draft = await createProject(db, { status: "draft" });
    const requester = (browser: string) => ({ browserKey: `${browser}-${project.id}`, clientAddress: "198.51.100.9" });
    const email = `limits-${project.id.slice(0, 8)}@example.com`;

    const none = await refusal(emailSavedList(db, testMailLinks, requester("a"), parseList({ email, slugs: [draft.slug] })));
    expect([none.code, none.message]).toEqual(["invalid_input", SAVED_LIST_MESSAGES.noneFound]);

    // Per recipient: 3 an hour, whichever browser asks.
    for (let sent = 0; sent < SAVED_LIST_MAIL_LIMITS.perEmail.max; sent += 1) {
      await emailSavedList(db, testMailLinks, requester(`browser${sent}`), parseList({ email, slugs: [project.slug] }));
    }
    const perEmail = await refusal(emailSavedList(db, testMailLinks, requester("another"), parseList({ email, slugs: [project.slug] })));
    expect([perEmail.code, perEmail.message]).toEqual(["rate_limited", SAVED_LIST_MAIL_LIMITS.perEmail.message]);

    // Per browser: 5 an hour, whatever the addresses.
    for (let sent = 0; sent < SAVED_LIST_MAIL_LIMITS.perBrowser.max; sent += 1) {
      await emailSavedList(db, testMailLinks, requester("busy"), parseList({ email: `busy${sent}-${email}`, slugs: [project.slug] }));
    }
    const perBrowser = await refusal(emailSavedList(db, testMailLinks, requester("busy"), parseList({ email: `busy-last-${email}`, slugs: [project.slug] })));
    expect([perBrowser.code, perBrowser.message]).toEqual(["rate_limited", SAVED_LIST_MAIL_LIMITS.perBrowser.message]);

    const queued = await db.selectFrom("mail_outbox").select("recipient").where("kind", "=", "saved-list").where("recipient", "like", `%${email}`).execute();
    expect(queued).toHaveLength(SAVED_LIST_MAIL_LIMITS.perEmail.max + SAVED_LIST_MAIL_LIMITS.perBrowser.max);
  });
});
