import { sql, type Kysely } from "kysely";
import { expect, it } from "vitest";
import type { Database } from "~/db/schema";
import type { Dialect } from "~/db/dialect.server";
import { loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import { networkKeyOf } from "~/modules/http/ip-address.server";
import { PageDoor, RecentPageLoads, recordScriptedScan, type PageLoadRequest } from "~/modules/scans/page-door.server";
import { recordScans, ScanRecorder } from "~/modules/scans/scans.server";
import { describeEachDialect } from "../support/databases";
import { createProject } from "../support/fixtures";
import { USER_AGENTS } from "../support/user-agents";

/** Documentation addresses, distinctive enough that finding one in any column can only mean it was stored. */
const IPV4 = "203.0.113.77";
const IPV6 = "2001:db8::77";
const IPHONE = USER_AGENTS[0]!.userAgent;

describeEachDialect("how and when people scanned (decision 67)", (getDb, dialect) => {
  const door = new PageDoor({ secret: "audience-secret-0123456789abcdef0123", secureCookie: false });
  const load = (overrides: Partial<PageLoadRequest>): PageLoadRequest => ({
    method: "GET",
    userAgent: IPHONE,
    acceptLanguage: "en-GB,en;q=0.9",
    clientHints: undefined,
    purpose: undefined,
    cookieHeader: undefined,
    revalidating: false,
    clientAddress: networkKeyOf(IPV4),
    qrCodeId: null,
    withinPage: false,
    backgroundFetch: false,
    offlineCopy: false,
    ...overrides,
  });

  async function setup() {
    const { db } = getDb();
    const project = await createProject(db);
    const [booth, badge] = ["booth", "badge"].map((label) => `${label}-${project.id.slice(0, 8)}`) as [string, string];
    await db
      .insertInto("qr_codes")
      .values([
        { id: booth, project_id: project.id, label: "Booth", event_tag: "demoday" },
        { id: badge, project_id: project.id, label: "Badge", event_tag: null },
      ])
      .execute();
    return { db, project, booth, badge, pitch: { id: project.id, teamIds: [project.ownerId] } };
  }

  /** Stored counters per code ('' for the plain link) and label triple, added up over hours. */
  async function storedCounters(db: Kysely<Database>, projectId: string) {
    const rows = await db.selectFrom("scan_audience_hours").selectAll().where("project_id", "=", projectId).execute();
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const key = `${row.qr_code_id}|${row.device}|${row.browser}|${row.in_app}`;
      counts[key] = (counts[key] ?? 0) + Number(row.scans);
    }
    return counts;
  }

  it("counts every counted load once by device, browser and in-app browser per code, whichever path counts it, and nothing for excluded loads", async () => {
    const { db, project, booth, badge, pitch } = await setup();
    const scans = new ScanRecorder(db);
    const recentPageLoads = new RecentPageLoads();
    const expected: Record<string, number> = {};
    const expect1 = (qrCodeId: string | null, audience: (typeof USER_AGENTS)[number]["audience"]) => {
      const key = `${qrCodeId ?? ""}|${audience.device}|${audience.browser}|${audience.inApp ?? ""}`;
      expected[key] = (expected[key] ?? 0) + 1;
    };

    // Every browser of the table opens the page once, through the booth, the badge or the plain link, from either address.
    for (const [index, { userAgent, audience }] of USER_AGENTS.entries()) {
      const qrCodeId = [booth, badge, null][index % 3]!;
      const clientAddress = networkKeyOf(index % 2 ? IPV6 : IPV4);
      const decision = door.decide(load({ userAgent, qrCodeId, clientAddress }), pitch, null);
      if (decision.kind !== "counted") throw new Error(`${userAgent}: ${decision.kind}`);
      await scans.record(decision.scan);
      if (decision.scan.viewerFingerprint) recentPageLoads.remember(decision.scan.viewerFingerprint, project.id);
      expect1(qrCodeId, audience);

      // The page's own beacon after a counted load is the same load: nothing more.
      if (index < 3 && decision.newViewerId) {
        const cookieHeader = door.viewerCookie(decision.newViewerId).split(";")[0];
        const outcome = await recordScriptedScan({ scans, recentPageLoads, pageDoor: door }, { projectId: project.id, qrCodeId, viewerFingerprint: null }, { cookieHeader, userAgent });
        expect(outcome).toBe("already-counted");
      }
    }

    // A page prefetched by LinkedIn on Android counts once, when its beacon says it was shown, with the beacon's user agent.
    const linkedIn = USER_AGENTS.find((entry) => entry.name === "LinkedIn on Android")!;
    const prefetched = door.decide(load({ userAgent: linkedIn.userAgent, qrCodeId: booth, purpose: "prefetch" }), pitch, null);
    if (prefetched.kind !== "speculative" || !prefetched.newViewerId) throw new Error(prefetched.kind);
    scans.exclude(project.id, "prefetch");
    const beaconCookie = door.viewerCookie(prefetched.newViewerId).split(";")[0];
    expect(
      await recordScriptedScan({ scans, recentPageLoads, pageDoor: door }, { projectId: project.id, qrCodeId: booth, viewerFingerprint: null }, { cookieHeader: beaconCookie, userAgent: linkedIn.userAgent }),
    ).toBe("counted");
    expect1(booth, linkedIn.audience);

    // Excluded loads: a crawler, two link previews, an app's own fetch, and the founder on their own phone.
    for (const [request, sessionUserId, reason] of [
      [load({ userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", qrCodeId: booth }), null, "bot"],
      [load({ userAgent: "WhatsApp/2.23.20.0 A", qrCodeId: booth }), null, "preview"],
      [load({ userAgent: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", qrCodeId: badge }), null, "preview"],
      [load({ userAgent: "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A.240805.005)", qrCodeId: badge }), null, "app"],
      [load({ qrCodeId: booth, clientAddress: networkKeyOf(IPV6) }), project.ownerId, "owner"],
    ] as const) {
      const decision = door.decide(request, pitch, sessionUserId);
      expect(decision).toEqual({ kind: "excluded", reason });
      if (decision.kind === "excluded") scans.exclude(project.id, decision.reason);
    }
    await scans.idle();

    expect(await storedCounters(db, project.id)).toEqual(expected);
    const stats = await db.selectFrom("project_stats").selectAll().where("project_id", "=", project.id).executeTakeFirstOrThrow();
    expect(stats).toMatchObject({ total_scans: USER_AGENTS.length + 1, excluded_bots: 1, excluded_previews: 2, excluded_app_fetches: 1, excluded_owner_views: 1, excluded_prefetches: 1 });

    // The analytics page reads the same counters, per code and for the project, for anyone on the team.
    const analytics = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect(analytics.audience.project.scans).toBe(USER_AGENTS.length + 1);
    const boothAudience = analytics.audience.codes.find((code) => code.source === `qr:${booth}`)!;
    expect(boothAudience.name).toBe("Booth · demoday");
    expect(boothAudience.apps.find((app) => app.label === "LinkedIn")?.scans).toBe(
      1 + USER_AGENTS.filter((entry, index) => index % 3 === 0 && entry.audience.inApp === "LinkedIn").length,
    );
    expect(analytics.audience.codes.map((code) => code.name)).toEqual(["Booth · demoday", "Badge", "Direct link"]);
    const byDevice = Object.fromEntries(analytics.audience.project.devices.map((share) => [share.label, share.scans]));
    expect(byDevice).toEqual(
      USER_AGENTS.reduce<Record<string, number>>((counts, entry) => ({ ...counts, [entry.audience.device]: (counts[entry.audience.device] ?? 0) + 1 }), { Android: 1 }),
    );

    // No address and no user agent is stored anywhere: every text column of every table, read from the catalog.
    const needles = [IPV4, IPV6, networkKeyOf(IPV6), ...USER_AGENTS.map((entry) => entry.userAgent)];
    expect(await columnsHolding(db, dialect, needles)).toEqual([]);
    // The search itself finds what is there.
    expect(await columnsHolding(db, dialect, [project.slug])).toContain("projects.slug");
  });

  it("puts each hour in the founder's hour of day, in the zone they have when they look", async () => {
    const { db, project, booth } = await setup();
    const at = (iso: string, count: number) =>
      recordScans(
        db,
        Array.from({ length: count }, () => ({ projectId: project.id, qrCodeId: booth, viewerFingerprint: null, audience: USER_AGENTS[0]!.audience })),
        undefined,
        new Date(iso),
      );
    await at("2026-11-27T14:10:00.000Z", 2); // New York 09:10 (EST), Kolkata 19:40
    await at("2026-11-27T14:50:00.000Z", 1); // New York 09:50, Kolkata 20:20: the UTC hour began at 19:30
    await at("2026-07-01T14:05:00.000Z", 4); // New York 10:05 (EDT), Kolkata 19:35
    await at("2026-11-27T03:59:00.000Z", 1); // New York 22:59 the day before, Kolkata 09:29: the UTC hour began at 08:30

    const hoursIn = async (timeZone: string) => {
      await db.updateTable("users").set({ time_zone: timeZone }).where("id", "=", project.ownerId).execute();
      const { audience } = await loadProjectAnalytics(db, project.ownerId, project.id, new Date("2026-11-27T16:00:00.000Z"));
      const hours = Object.fromEntries(audience.project.hours.flatMap((scans, hour) => (scans ? [[hour, scans]] : [])));
      return { hours, timeZone: audience.timeZone, startsAtMinute: audience.hourStartsAtMinute };
    };
    expect(await hoursIn("America/New_York")).toEqual({ hours: { 9: 3, 10: 4, 22: 1 }, timeZone: "America/New_York", startsAtMinute: 0 });
    // India is UTC+5:30: each stored UTC hour is counted in the local hour it begins in (14:00 UTC is 19:30, hour 19).
    expect(await hoursIn("Asia/Kolkata")).toEqual({ hours: { 8: 1, 19: 7 }, timeZone: "Asia/Kolkata", startsAtMinute: 30 });
    expect(await hoursIn("UTC")).toEqual({ hours: { 3: 1, 14: 7 }, timeZone: "UTC", startsAtMinute: 0 });
  });

  it("shows an empty audience, not an error, before any scan", async () => {
    const { db, project } = await setup();
    const { audience } = await loadProjectAnalytics(db, project.ownerId, project.id);
    expect(audience.project).toEqual({ scans: 0, devices: [], browsers: [], apps: [], hours: Array.from({ length: 24 }, () => 0) });
    expect(audience.codes).toEqual([]);
  });
});

/** `table.column` of every text column (JSON included) that holds one of `needles`, read from the database's catalog. */
async function columnsHolding(db: Kysely<Database>, dialect: Dialect, needles: string[]): Promise<string[]> {
  const columns =
    dialect === "sqlite"
      ? (
          await sql<{ table_name: string; column_name: string }>`
            select m.name as table_name, p.name as column_name
            from sqlite_master m join pragma_table_info(m.name) p
            where m.type = 'table' and m.name not like 'sqlite_%'
              and (p.type = '' or upper(p.type) like '%TEXT%' or upper(p.type) like '%CHAR%' or upper(p.type) like '%CLOB%' or upper(p.type) like '%JSON%')`.execute(db)
        ).rows
      : (
          await sql<{ table_name: string; column_name: string }>`
            select table_name, column_name from information_schema.columns
            where table_schema = current_schema() and data_type in ('text', 'character varying', 'character', 'json', 'jsonb')`.execute(db)
        ).rows;
  expect(columns.length).toBeGreaterThan(100);
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const text = dialect === "sqlite" ? sql`cast(${sql.ref(column)} as text)` : sql`${sql.ref(column)}::text`;
    const position = (needle: string) => (dialect === "sqlite" ? sql`instr(${text}, ${needle}) > 0` : sql`strpos(${text}, ${needle}) > 0`);
    const { rows } = await sql<{ hits: number }>`select count(*) as hits from ${sql.table(table)} where ${sql.join(needles.map(position), sql` or `)}`.execute(db);
    if (Number(rows[0]?.hits ?? 0) > 0) found.push(`${table}.${column}`);
  }
  return found;
}
