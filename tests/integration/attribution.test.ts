import { expect, it } from "vitest";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { createQrCode, deleteQrCode } from "~/modules/qr/qr-codes.server";
import { submitIntro, subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { validate } from "~/modules/forms/validation";
import { introSchema } from "~/modules/contacts/intro-form";
import { signalSchema } from "~/modules/signals/signal-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import { recordScans } from "~/modules/scans/scans.server";
import { recordSignal } from "~/modules/signals/signals.server";
import { describeEachDialect } from "../support/databases";
import { createProject, minutesAgo, sentAt, testMailLinks } from "../support/fixtures";
import { parseCsv } from "../support/founder-e2e";

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

const visitor = (viewerFingerprint: string, at?: Date) => ({ userId: null, identity: { viewerFingerprint, addressHash: null }, ...sentAt(at) });

describeEachDialect("every action attributed to the event it came from", (getDb) => {
  async function setup() {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db);
    const codes = { booth: `booth${project.id.slice(0, 6)}`, badge: `badge${project.id.slice(0, 6)}`, foreign: `frgn${other.id.slice(0, 6)}` };
    await db
      .insertInto("qr_codes")
      .values([
        { id: codes.booth, project_id: project.id, label: "Booth", event_tag: "Expo" },
        { id: codes.badge, project_id: project.id, label: "Badge", event_tag: null },
        { id: codes.foreign, project_id: other.id, label: "Elsewhere", event_tag: null },
      ])
      .execute();
    return { db, project, codes };
  }

  it("gives each action the source of the visitor's latest page load, and counts people once", async () => {
    const { db, project, codes } = await setup();
    await recordScans(db, [
      { projectId: project.id, qrCodeId: codes.booth, viewerFingerprint: "ada" },
      { projectId: project.id, qrCodeId: codes.booth, viewerFingerprint: "ada" },
      { projectId: project.id, qrCodeId: codes.badge, viewerFingerprint: "bo" },
      { projectId: project.id, qrCodeId: null, viewerFingerprint: "cy" },
    ]);
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Ada", email: "ada@example.com", note: "hi" }), visitor("ada", minutesAgo(5)));
    await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { consent: "on", name: "Ada", email: "ADA@example.com" }), visitor("ada", minutesAgo(4)));
    const signal = parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Ada", email: "ada@example.com" });
    const recorded = await recordSignal(db, testMailLinks, project.id, signal, visitor("ada", minutesAgo(3)));
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Bo", email: "bo@example.com", note: "hi" }), visitor("bo", minutesAgo(2)));
    await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { consent: "on", name: "Cy", email: "cy@example.com" }), visitor("cy", minutesAgo(1)));

    const contacts = await db.selectFrom("contacts").select(["email", "intent", "source"]).where("project_id", "=", project.id).orderBy("created_at").execute();
    expect(contacts).toEqual([
      { email: "ada@example.com", intent: "Intro", source: `qr:${codes.booth}` },
      { email: "bo@example.com", intent: "Intro", source: `qr:${codes.badge}` },
      { email: "cy@example.com", intent: "Subscriber", source: "direct" },
    ]);
    const stored = await db.selectFrom("signals").select(["source", "event_source"]).where("id", "=", recorded.signalId).executeTakeFirstOrThrow();
    expect(stored).toEqual({ source: `qr:${codes.booth}`, event_source: "Booth · Expo" });

    // The lead keeps the same source as the contact.
    const leads = await db.selectFrom("leads").select(["email", "source"]).where("project_id", "=", project.id).orderBy("email").execute();
    expect(leads).toEqual([
      { email: "ada@example.com", source: `qr:${codes.booth}` },
      { email: "bo@example.com", source: `qr:${codes.badge}` },
      { email: "cy@example.com", source: "direct" },
    ]);

    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect(analytics.peopleWhoActed).toBe(3);
    expect(analytics.peopleShare).toBe(100);
    const rows = Object.fromEntries(analytics.funnel.map((row) => [row.label, { scans: row.scans, viewers: row.viewers, people: row.people, intros: row.intros, subscribers: row.subscribers, signals: row.signals, share: row.share }]));
    expect(rows).toEqual({
      Booth: { scans: 2, viewers: 1, people: 1, intros: 1, subscribers: 1, signals: 1, share: 100 },
      Badge: { scans: 1, viewers: 1, people: 1, intros: 1, subscribers: 0, signals: 0, share: 100 },
      "Direct link": { scans: 1, viewers: 1, people: 1, intros: 0, subscribers: 1, signals: 0, share: 100 },
    });
  });

  it("attributes to the latest code: the plain link never takes a viewer away from theirs, another code does (decision 52)", async () => {
    const { db, project, codes } = await setup();
    await recordScans(db, [{ projectId: project.id, qrCodeId: codes.booth, viewerFingerprint: "dee" }]);
    // Back by the plain address (a reload after it dropped ?qr=, a reopened tab), with the cookie the door gave.
    await recordScans(db, [{ projectId: project.id, qrCodeId: null, viewerFingerprint: "dee", cookieKept: true }]);
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Dee", email: "dee@example.com", note: "hi" }), visitor("dee", minutesAgo(2)));
    await recordScans(db, [{ projectId: project.id, qrCodeId: codes.badge, viewerFingerprint: "dee", cookieKept: true }]);
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Dee", email: "dee.work@example.com", note: "again" }), visitor("dee", minutesAgo(1)));
    const contacts = await db.selectFrom("contacts").select("source").where("project_id", "=", project.id).orderBy("created_at").execute();
    expect(contacts.map((contact) => contact.source)).toEqual([`qr:${codes.booth}`, `qr:${codes.badge}`]);
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect(analytics.funnel.find((row) => row.kind === "direct")).toMatchObject({ scans: 0, viewers: 0 });
  });

  it("counts a forged QR id (another project's, or unknown) as Direct", async () => {
    const { db, project, codes } = await setup();
    await recordScans(db, [
      { projectId: project.id, qrCodeId: codes.foreign, viewerFingerprint: "eve" },
      { projectId: project.id, qrCodeId: "no-such-code", viewerFingerprint: "fay" },
    ]);
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Eve", email: "eve@example.com", note: "hi" }), visitor("eve"));
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Fay", email: "fay@example.com", note: "hi" }), visitor("fay"));
    const sources = await db.selectFrom("contacts").select("source").where("project_id", "=", project.id).execute();
    expect(sources.map((row) => row.source)).toEqual(["direct", "direct"]);
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect(analytics.funnel.find((row) => row.kind === "direct")).toMatchObject({ scans: 2, viewers: 2, people: 2, intros: 2 });
  });

  it("marks an action the door never saw (a client that did not load the page) as not attributed", async () => {
    const { db, project } = await setup();
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Gus", email: "gus@example.com", note: "hi" }), { userId: null });
    await submitIntro(db, testMailLinks, project.id, parse(introSchema, { name: "Hal", email: "hal@example.com", note: "hi" }), visitor("never-scanned"));
    const sources = await db.selectFrom("contacts").select("source").where("project_id", "=", project.id).execute();
    expect(sources.map((row) => row.source)).toEqual(["unknown", "unknown"]);
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect(analytics.funnel.map((row) => row.label).sort()).toEqual(["Badge", "Booth", "Direct link", "Not attributed"]);
    expect(analytics.funnel.find((row) => row.kind === "unknown")).toMatchObject({ people: 2, intros: 2, viewers: 0 });
  });
});

describeEachDialect("a form carries the code of the page it was sent from (decision 91)", (getDb) => {
  it("credits a cookie-less visitor's intro to the code its page was opened with, though phones behind its address came through two codes", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const other = await createProject(db);
    const booth = await createQrCode(db, project.ownerId, project.id, { label: "Booth", eventTag: "Expo" });
    const badge = await createQrCode(db, project.ownerId, project.id, { label: "Badge", eventTag: "Expo" });
    const elsewhere = await createQrCode(db, other.ownerId, other.id, { label: "Elsewhere", eventTag: null });
    // Two identical phones behind one address, through two codes; given a cookie each, they never send it back: their
    // forms come with the address alone, which cannot tell them apart.
    await recordScans(db, [
      { projectId: project.id, qrCodeId: booth.id, viewerFingerprint: "phone-1", addressHash: "same-phones" },
      { projectId: project.id, qrCodeId: badge.id, viewerFingerprint: "phone-2", addressHash: "same-phones" },
    ]);
    const cookieLess = (visitCode: string | null) => ({ userId: null, identity: { viewerFingerprint: null, addressHash: "same-phones", visitCode } });
    const intro = (name: string) => parse(introSchema, { name, email: `${name.toLowerCase()}@example.com`, note: "hi" });
    await submitIntro(db, testMailLinks, project.id, intro("Ana"), cookieLess(booth.id));
    await submitIntro(db, testMailLinks, project.id, intro("Ben"), cookieLess(null));
    // Another project's code, or no code at all, names no visit of this project's.
    await submitIntro(db, testMailLinks, project.id, intro("Cem"), cookieLess(elsewhere.id));
    await submitIntro(db, testMailLinks, project.id, intro("Dov"), cookieLess("not-a-code"));

    const inbox = await openLeadInbox(db, project.ownerId, project.id, { action: null, status: null, event: null, q: null, after: null });
    expect(Object.fromEntries(inbox.leads.map((lead) => [lead.name, lead.event.name]))).toEqual({
      Ana: "Booth · Expo",
      Ben: "Not attributed",
      Cem: "Not attributed",
      Dov: "Not attributed",
    });
  });
});

describeEachDialect("one name for one code (decision 54)", (getDb) => {
  it("the inbox, the CSV and the funnel name each person's code the same, two codes of one event apart", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    // The inbox lists the codes oldest first: each made in its own minute, never a tie.
    const hallA = await createQrCode(db, project.ownerId, project.id, { label: "Hall A", eventTag: "Demo Day" }, minutesAgo(3));
    const hallB = await createQrCode(db, project.ownerId, project.id, { label: "Hall B", eventTag: "Demo Day" }, minutesAgo(2));
    const flyer = await createQrCode(db, project.ownerId, project.id, { label: "Flyer", eventTag: null }, minutesAgo(1));
    await recordScans(db, [
      { projectId: project.id, qrCodeId: hallA.id, viewerFingerprint: "ada" },
      { projectId: project.id, qrCodeId: hallB.id, viewerFingerprint: "bo" },
      { projectId: project.id, qrCodeId: null, viewerFingerprint: "di" },
      { projectId: project.id, qrCodeId: flyer.id, viewerFingerprint: "eve" },
    ]);
    const introFrom = (name: string, viewer: string | null) =>
      submitIntro(db, testMailLinks, project.id, parse(introSchema, { name, email: `${name.toLowerCase()}@example.com`, note: "hi" }), viewer ? visitor(viewer) : { userId: null });
    await introFrom("Ada", "ada");
    await introFrom("Bo", "bo");
    // Cy's first form came from a client the door never saw; her next one, after scanning Hall B, tells where she met them.
    await introFrom("Cy", null);
    await recordScans(db, [{ projectId: project.id, qrCodeId: hallB.id, viewerFingerprint: "cy" }]);
    await subscribeToUpdates(db, testMailLinks, project.id, parse(subscribeSchema, { consent: "on", name: "Cy", email: "cy@example.com" }), visitor("cy"));
    await introFrom("Di", "di");
    await introFrom("Eve", "eve");
    await introFrom("Gus", null);
    await deleteQrCode(db, project.ownerId, project.id, flyer.id);

    const inbox = await openLeadInbox(db, project.ownerId, project.id, { action: null, status: null, event: null, q: null, after: null });
    const inboxNames = Object.fromEntries(inbox.leads.map((lead) => [lead.name, lead.event.name]));
    expect(inboxNames).toEqual({
      Ada: "Hall A · Demo Day",
      Bo: "Hall B · Demo Day",
      Cy: "Hall B · Demo Day",
      Di: "Direct link",
      Eve: "Deleted QR code",
      Gus: "Not attributed",
    });
    expect(inbox.events.map((event) => event.name)).toEqual(["Hall A · Demo Day", "Hall B · Demo Day", "Direct link", "Not attributed"]);

    const csv = await exportContactsCsv(db, project.ownerId, project.id);
    let text = "";
    for await (const chunk of csv.body) text += String(chunk);
    const [header, ...rows] = parseCsv(text);
    const sourceColumn = header!.indexOf("Source");
    expect(Object.fromEntries(rows.map((row) => [row[0], row[sourceColumn]]))).toEqual(inboxNames);

    // The funnel's rows, which count each action where it came from, use the same names.
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    const funnelNames = analytics.funnel.map((row) => (row.kind === "qr" && row.label !== "Deleted QR code" ? `${row.label} · ${row.eventTag}` : row.label));
    expect(funnelNames).toEqual(expect.arrayContaining(Object.values(inboxNames)));
    // Cy's two actions: her intro is not attributed, her subscription is Hall B's.
    expect(analytics.funnel.find((row) => row.label === "Hall B")).toMatchObject({ intros: 1, subscribers: 1, people: 2 });
    expect(analytics.funnel.find((row) => row.kind === "unknown")).toMatchObject({ intros: 2, people: 2 });
  });
});
