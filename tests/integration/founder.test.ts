import jsQR from "jsqr";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { loadActivityFeed } from "~/modules/activity/activity.server";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { submitIntro, subscribeToUpdates } from "~/modules/contacts/contacts.server";
import { unsubscribeEmail } from "~/modules/contacts/unsubscribe.server";
import { validate } from "~/modules/forms/validation";
import { exportLeadVCards, leadVCard } from "~/modules/leads/capture/lead-vcards.server";
import { getLeadAlertSettings, saveLeadAlertSettings } from "~/modules/leads/inbox/lead-alerts.server";
import { openLeadInbox } from "~/modules/leads/inbox/lead-inbox.server";
import { updateLeadTriage } from "~/modules/leads/inbox/lead-triage.server";
import { addWebhookEndpoint, listWebhookEndpoints } from "~/modules/webhooks/webhooks.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { signalSchema } from "~/modules/signals/signal-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";
import {
  createProject,
  getEditableProject,
  isFounder,
  listTeamProjects,
  updateProject,
} from "~/modules/projects/founder-projects.server";
import { DEFAULT_TIERS, projectFormSchema, SLUG_TAKEN_MESSAGE, type ProjectFormInput } from "~/modules/projects/project-form";
import { createQrCode, deleteQrCode, listQrCodes, renderQrImages } from "~/modules/qr/qr-codes.server";
import { NOT_FOUND_OR_DENIED } from "~/modules/access/project-access.server";
import { recordScans } from "~/modules/scans/scans.server";
import { recordSignal } from "~/modules/signals/signals.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createUser, minutesAgo, testMailLinks } from "../support/fixtures";

const PUBLIC_URL = "https://pitch.example";

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

function rawProject(overrides: Record<string, unknown> = {}) {
  return {
    title: "Harbor",
    slug: `harbor-${crypto.randomUUID().slice(0, 8)}`,
    oneLiner: "Cold chain",
    summary: "",
    videoUrl: "",
    deckUrl: "https://deck.example/harbor",
    calendlyUrl: "",
    status: "published",
    metrics: [{ label: "MRR", value: "$48k" }],
    problemPoints: ["Spoilage"],
    solutionPoints: ["Solar fridge"],
    tiers: DEFAULT_TIERS,
    ...overrides,
  };
}

function projectInput(overrides: Partial<ProjectFormInput> = {}): ProjectFormInput {
  return parse(projectFormSchema, rawProject(overrides));
}

async function founderWithProject(database: TestDatabase) {
  const ownerId = await createUser(database.db);
  const project = await createProject(database.db, ownerId, projectInput());
  return { ownerId, projectId: project.id, slug: project.slug };
}

describeEachDialect("founder projects", (getDb) => {
  it("creates a project with its tiers and stats row, and updates it keeping tier ids", async () => {
    const database = getDb();
    const { ownerId, projectId } = await founderWithProject(database);
    const project = await getEditableProject(database.db, ownerId, projectId);
    expect(project).toMatchObject({ title: "Harbor", deck_url: "https://deck.example/harbor", video_url: null, status: "published" });
    expect(project.tiers.map((tier) => tier.range_label)).toEqual(["Angel", "Syndicate", "Lead"]);
    expect(await isFounder(database.db, ownerId)).toBe(true);

    const [first, , third] = project.tiers;
    await updateProject(
      database.db,
      ownerId,
      projectId,
      projectInput({
        slug: project.slug,
        title: "Harbor 2",
        tiers: [
          { id: third!.id, rangeLabel: "Lead", rangeMin: 300_000, rangeMax: null, perks: [] },
          { id: first!.id, rangeLabel: "Angel+", rangeMin: 5_000, rangeMax: 30_000, perks: ["Updates"] },
          { rangeLabel: "Strategic", rangeMin: 1_000_000, rangeMax: null, perks: [] },
        ],
      }),
    );
    const updated = await getEditableProject(database.db, ownerId, projectId);
    expect(updated.title).toBe("Harbor 2");
    expect(updated.content_version).toBe(project.content_version + 1);
    expect(updated.tiers.map((tier) => [tier.range_label, tier.sort_order])).toEqual([
      ["Lead", 0],
      ["Angel+", 1],
      ["Strategic", 2],
    ]);
    expect(updated.tiers[0]!.id).toBe(third!.id);
  });

  it("refuses a slug that is taken, on create and on update, with the message on the slug field", async () => {
    const database = getDb();
    const { ownerId, slug } = await founderWithProject(database);
    const error = await createProject(database.db, ownerId, projectInput({ slug })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "conflict", message: SLUG_TAKEN_MESSAGE, fieldErrors: { slug: SLUG_TAKEN_MESSAGE } });
    const other = await createProject(database.db, ownerId, projectInput());
    await expect(updateProject(database.db, ownerId, other.id, projectInput({ slug }))).rejects.toMatchObject({ code: "conflict" });
  });

  it("validates the form: required fields, slug format, http(s) URLs, tier ranges; empty URLs become null", () => {
    expect(validate(projectFormSchema, rawProject({ title: " " }))).toMatchObject({ ok: false, formError: "Please fill in all required fields" });
    expect(validate(projectFormSchema, rawProject({ slug: "Not A Slug" }))).toMatchObject({ ok: false, fieldErrors: { slug: expect.stringMatching(/lowercase/) } });
    expect(validate(projectFormSchema, rawProject({ videoUrl: "javascript:alert(1)" }))).toMatchObject({ ok: false, fieldErrors: { videoUrl: expect.any(String) } });
    expect(
      validate(projectFormSchema, rawProject({ tiers: [{ rangeLabel: "Bad", rangeMin: 10, rangeMax: 5, perks: [] }] })),
    ).toMatchObject({ ok: false, fieldErrors: { "tiers.0.rangeMax": "The maximum must be at least the minimum" } });
    const ok = validate(projectFormSchema, rawProject({ deckUrl: "", calendlyUrl: "  " }));
    expect(ok).toMatchObject({ ok: true, data: { deckUrl: null, calendlyUrl: null } });
  });

  it("lists the owner's projects with exact counters kept by every write", async () => {
    const database = getDb();
    const { ownerId, projectId } = await founderWithProject(database);
    const project = await getEditableProject(database.db, ownerId, projectId);
    const visitor = { userId: null };
    await submitIntro(database.db, testMailLinks, projectId, parse(introSchema, { name: "A", email: "a@example.com", note: "n" }), visitor);
    await subscribeToUpdates(database.db, testMailLinks, projectId, parse(subscribeSchema, { consent: "on", name: "B", email: "b@example.com" }), visitor);
    await subscribeToUpdates(database.db, testMailLinks, projectId, parse(subscribeSchema, { consent: "on", name: "B", email: "b@example.com" }), visitor);
    await subscribeToUpdates(database.db, testMailLinks, projectId, parse(subscribeSchema, { consent: "on", name: "A", email: "a@example.com" }), visitor);
    await recordSignal(database.db, testMailLinks, projectId, parse(signalSchema, { tierId: project.tiers[0]!.id, name: "C", email: "c@example.com" }), visitor);
    await unsubscribeEmail(database.db, "B@example.com");

    const [card] = await listTeamProjects(database.db, ownerId);
    expect(card).toMatchObject({ id: projectId, signals: 1, intros: 1, subscribers: 1 });
    const analytics = await loadProjectAnalytics(database.db, ownerId, projectId);
    expect(analytics).toMatchObject({ totalIntros: 1, totalSubscribers: 1, totalSignals: 1, actions: 3, conversionRate: 0 });
  });
});

describeEachDialect("QR codes and analytics", (getDb) => {
  it("creates, lists (newest first), renders and deletes codes that encode the tracked pitch URL", async () => {
    const database = getDb();
    const { ownerId, projectId, slug } = await founderWithProject(database);
    const booth = await createQrCode(database.db, ownerId, projectId, { label: "Booth A", eventTag: "TechCrunch" }, minutesAgo(2));
    const badge = await createQrCode(database.db, ownerId, projectId, { label: "Badge", eventTag: null }, minutesAgo(1));
    expect(booth.id).toMatch(/^[a-z2-9]{8}$/);
    expect((await listQrCodes(database.db, ownerId, projectId)).map((code) => code.label)).toEqual(["Badge", "Booth A"]);

    const images = await renderQrImages(database.db, ownerId, PUBLIC_URL, slug, booth.id);
    expect(images.url).toBe(`${PUBLIC_URL}/pitch/${slug}?qr=${booth.id}`);
    expect(images.png.subarray(1, 4).toString()).toBe("PNG");
    expect(images.png.readUInt32BE(16)).toBeGreaterThanOrEqual(1024);
    expect(images.svg).toContain("<svg");
    // A standard QR reader reads exactly the tracked URL back from the printable PNG.
    const bitmap = PNG.sync.read(images.png);
    expect(jsQR(new Uint8ClampedArray(bitmap.data), bitmap.width, bitmap.height)?.data).toBe(images.url);

    await deleteQrCode(database.db, ownerId, projectId, badge.id);
    expect((await listQrCodes(database.db, ownerId, projectId)).map((code) => code.id)).toEqual([booth.id]);
  });

  it("reports scans per code, unique viewers, conversion and the hourly series from aggregates", async () => {
    const database = getDb();
    const { ownerId, projectId } = await founderWithProject(database);
    const booth = await createQrCode(database.db, ownerId, projectId, { label: "Booth", eventTag: "Expo" });
    await recordScans(database.db, [
      { projectId, qrCodeId: booth.id, viewerFingerprint: "v1" },
      { projectId, qrCodeId: booth.id, viewerFingerprint: "v2" },
      { projectId, qrCodeId: booth.id, viewerFingerprint: "v1" },
      { projectId, qrCodeId: null, viewerFingerprint: "v3" },
    ]);
    const project = await getEditableProject(database.db, ownerId, projectId);
    await recordSignal(database.db, testMailLinks, projectId, parse(signalSchema, { tierId: project.tiers[0]!.id, name: "C", email: "c@example.com" }), { userId: null });
    const analytics = await loadProjectAnalytics(database.db, ownerId, projectId);
    expect(analytics).toMatchObject({ totalScans: 4, uniqueScans: 3, totalSignals: 1, actions: 1, conversionRate: 33.3 });
    expect(analytics.qrCodes).toEqual([{ id: booth.id, label: "Booth", eventTag: "Expo", totalScans: 3, uniqueScans: 2, endedOn: null, movedAway: false }]);
    const hourly = analytics.scansOverTime.hourly.find((series) => series.qrCodeId === booth.id);
    expect(hourly?.points.reduce((sum, point) => sum + point.scans, 0)).toBe(3);
    expect(analytics.scansOverTime.hourly.find((series) => series.qrCodeId === "")?.label).toBe("Direct link");
  });

  it("sums hours older than 48 hours into UTC days for the chart, within 90 days", async () => {
    const database = getDb();
    const { ownerId, projectId } = await founderWithProject(database);
    const booth = await createQrCode(database.db, ownerId, projectId, { label: "Booth", eventTag: null });
    const now = new Date("2026-11-20T12:00:00.000Z");
    await database.db
      .insertInto("scan_hours")
      .values([
        { project_id: projectId, qr_code_id: booth.id, hour: "2026-11-20T09:00:00.000Z", scans: 2 },
        { project_id: projectId, qr_code_id: booth.id, hour: "2026-11-15T09:00:00.000Z", scans: 3 },
        { project_id: projectId, qr_code_id: booth.id, hour: "2026-11-15T22:00:00.000Z", scans: 4 },
        { project_id: projectId, qr_code_id: booth.id, hour: "2026-11-14T23:00:00.000Z", scans: 1 },
        { project_id: projectId, qr_code_id: booth.id, hour: "2026-01-01T00:00:00.000Z", scans: 50 },
      ])
      .execute();
    const { scansOverTime } = await loadProjectAnalytics(database.db, ownerId, projectId, now);
    expect(scansOverTime.hourly).toEqual([{ qrCodeId: booth.id, label: "Booth", eventTag: null, points: [{ at: "2026-11-20T09:00:00.000Z", scans: 2 }] }]);
    expect(scansOverTime.daily[0]?.points).toEqual([
      { at: "2026-11-14T00:00:00.000Z", scans: 1 },
      { at: "2026-11-15T00:00:00.000Z", scans: 7 },
    ]);
  });

  it("streams contacts as RFC 4180 CSV with formulas neutralised", async () => {
    const database = getDb();
    const { ownerId, projectId } = await founderWithProject(database);
    await submitIntro(
      database.db,
      testMailLinks,
      projectId,
      parse(introSchema, { name: '=HYPERLINK("x")', email: "a@example.com", note: 'Line one,\n"quoted"', roleTags: ["Angel", "PM"], linkedinUrl: "https://linkedin.com/in/a" }),
      { userId: null },
    );
    const csv = await exportContactsCsv(database.db, ownerId, projectId);
    expect(csv.fileName).toBe("Harbor-contacts.csv");
    expect(csv.count).toBe(1);
    let text = "";
    for await (const chunk of csv.body) text += chunk.toString();
    // A byte-order mark first, so spreadsheets read the file as UTF-8.
    expect(text.startsWith("\uFEFFName,")).toBe(true);
    const [header, ...rest] = text.slice(1).split("\r\n");
    expect(header).toBe(
      "Name,Email,Intent,Role Tags,LinkedIn,Note,Created At,Tier,Range,Message,Source,Event tag,Status,Temperature,Founder note,First response at,Minutes to first response,Qualifying answer,Met in person,Phone,Pages read,Seconds read",
    );
    expect(rest.join("\r\n")).toMatch(/^"'=HYPERLINK\(""x""\)",a@example\.com,Intro,Angel;PM,https:\/\/linkedin\.com\/in\/a,"Line one,\n""quoted""",\d{4}-\d\d-\d\dT[\d:.]+Z,,,,Not attributed,,New,,,,,,,,0,0\r\n$/);
  });
});

describeEachDialect("CSV export across pages", (getDb) => {
  it("exports every contact exactly once, newest first, past the page size, even with equal timestamps", async () => {
    const database = getDb();
    const { ownerId, projectId } = await founderWithProject(database);
    const sameMoment = "2026-01-01T00:00:00.000Z";
    const rows = Array.from({ length: 1_205 }, (_, i) => ({
      id: `c-${String(i).padStart(5, "0")}`,
      project_id: projectId,
      name: `Contact ${i}`,
      email: `c${i}@example.com`,
      intent: "Subscriber" as const,
      subscribed: true,
      role_tags: [],
      linkedin_url: null,
      note: null,
      user_id: null,
      created_at: i < 600 ? sameMoment : new Date(Date.parse(sameMoment) + i * 1000).toISOString(),
    }));
    for (let start = 0; start < rows.length; start += 400) {
      await database.db.insertInto("contacts").values(rows.slice(start, start + 400)).execute();
    }
    const csv = await exportContactsCsv(database.db, ownerId, projectId);
    let text = "";
    for await (const chunk of csv.body) text += chunk.toString();
    const names = text.trim().split("\r\n").slice(1).map((line) => line.split(",")[0]);
    expect(names).toHaveLength(1_205);
    expect(new Set(names).size).toBe(1_205);
    expect(names[0]).toBe("Contact 1204");
    expect(names.at(-1)).toBe("Contact 0");
  });
});

type Operation = {
  name: string;
  run: (db: TestDatabase["db"], userId: string, target: { projectId: string; slug: string; qrCodeId: string; leadId: string }) => Promise<unknown>;
};

const ANY_LEAD = { action: null, event: null, status: null, q: null, after: null };

const OWNER_ONLY: Operation[] = [
  { name: "project read", run: (db, userId, t) => getEditableProject(db, userId, t.projectId) },
  { name: "project update", run: (db, userId, t) => updateProject(db, userId, t.projectId, projectInput({ slug: t.slug })) },
  { name: "QR create", run: (db, userId, t) => createQrCode(db, userId, t.projectId, { label: "x", eventTag: null }) },
  { name: "QR list", run: (db, userId, t) => listQrCodes(db, userId, t.projectId) },
  { name: "QR download", run: (db, userId, t) => renderQrImages(db, userId, PUBLIC_URL, t.slug, t.qrCodeId) },
  { name: "analytics", run: (db, userId, t) => loadProjectAnalytics(db, userId, t.projectId) },
  {
    name: "CSV export",
    run: async (db, userId, t) => {
      const csv = await exportContactsCsv(db, userId, t.projectId);
      for await (const chunk of csv.body) void chunk;
    },
  },
  { name: "leads page", run: (db, userId, t) => openLeadInbox(db, userId, t.projectId, ANY_LEAD) },
  { name: "lead status and note", run: (db, userId, t) => updateLeadTriage(db, userId, t.projectId, { leadId: t.leadId, status: "contacted", note: "mine" }) },
  { name: "lead vCard", run: (db, userId, t) => leadVCard(db, userId, t.projectId, t.leadId) },
  {
    name: "leads vCards download",
    run: async (db, userId, t) => {
      const vcards = await exportLeadVCards(db, userId, t.projectId, ANY_LEAD);
      for await (const chunk of vcards.body) void chunk;
    },
  },
  { name: "alert settings read", run: (db, userId, t) => getLeadAlertSettings(db, userId, t.projectId) },
  { name: "alert settings save", run: (db, userId, t) => saveLeadAlertSettings(db, userId, t.projectId, { introAlerts: "daily", signalAlerts: "off" }) },
  { name: "webhooks list", run: (db, userId, t) => listWebhookEndpoints(db, userId, t.projectId) },
  {
    name: "webhook add",
    run: (db, userId, t) => addWebhookEndpoint(db, userId, t.projectId, { url: "https://hooks.example/in" }, { allowPrivateTargets: false }, async () => [{ address: "93.184.216.34", family: 4 }]),
  },
  { name: "QR delete", run: (db, userId, t) => deleteQrCode(db, userId, t.projectId, t.qrCodeId) },
];

describeEachDialect("access control: owner-only operations", (getDb) => {
  describe.each(OWNER_ONLY)("$name", ({ name, run }) => {
    it("refuses another signed-in user with 'not found' and succeeds for the owner", async () => {
      const database = getDb();
      const { ownerId, projectId, slug } = await founderWithProject(database);
      const { id: qrCodeId } = await createQrCode(database.db, ownerId, projectId, { label: "Booth", eventTag: null });
      await submitIntro(database.db, testMailLinks, projectId, parse(introSchema, { name: "Ada", email: "ada@example.com", note: "n" }), { userId: null });
      const { id: leadId } = await database.db.selectFrom("leads").select("id").where("project_id", "=", projectId).executeTakeFirstOrThrow();
      const intruder = await createUser(database.db);
      const error = await run(database.db, intruder, { projectId, slug, qrCodeId, leadId }).catch((e: unknown) => e);
      expect(error, name).toMatchObject({ code: "not_found" });
      expect([NOT_FOUND_OR_DENIED, "QR code not found"]).toContain((error as Error).message);
      const lead = await database.db.selectFrom("leads").select(["status", "note"]).where("id", "=", leadId).executeTakeFirstOrThrow();
      expect(lead).toEqual({ status: "new", note: null });
      await expect(run(database.db, ownerId, { projectId, slug, qrCodeId, leadId })).resolves.not.toThrow();
    });
  });

  it("shows a founder's activity feed only to that founder", async () => {
    const database = getDb();
    const { ownerId, projectId } = await founderWithProject(database);
    await submitIntro(database.db, testMailLinks, projectId, parse(introSchema, { name: "Ada", email: "a@example.com", note: "n" }), { userId: null });
    await recordScans(database.db, [{ projectId, qrCodeId: null, viewerFingerprint: "v" }]);
    const expo = await createQrCode(database.db, ownerId, projectId, { label: "Booth", eventTag: "Expo" });
    const project = await getEditableProject(database.db, ownerId, projectId);
    const signal = parse(signalSchema, { tierId: project.tiers[0]!.id, name: "Bo", email: "bo@example.com", showName: "on" });
    // The visitor came through the Expo code: the signal remembers where the founder met them.
    await recordScans(database.db, [{ projectId, qrCodeId: expo.id, viewerFingerprint: "expo-visitor" }]);
    await recordSignal(database.db, testMailLinks, projectId, signal, { userId: null, identity: { viewerFingerprint: "expo-visitor", addressHash: null } });
    const mine = await loadActivityFeed(database.db, ownerId);
    expect(mine.map((item) => item.title)).toEqual(expect.arrayContaining(["Ada requested intro", "New visit from your pitch link", "New interest signal ($5k-$25k)"]));
    expect(mine.find((item) => item.type === "signal")?.description).toBe("Met at Booth · Expo");
    const intruder = await createUser(database.db);
    expect(await loadActivityFeed(database.db, intruder)).toEqual([]);
  });
});
