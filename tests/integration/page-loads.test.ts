import { expect, it } from "vitest";
import { PageDoor, RecentPageLoads, recordScriptedScan } from "~/modules/scans/page-door.server";
import { ScanRecorder } from "~/modules/scans/scans.server";
import { describeEachDialect } from "../support/databases";
import { createProject } from "../support/fixtures";

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

describeEachDialect("page loads counted at the door", (getDb) => {
  const door = new PageDoor({ secret: "integration-secret-0123456789abcdef", secureCookie: false });
  const visit = { method: "GET", userAgent: PHONE, acceptLanguage: "en-GB,en;q=0.9", clientHints: undefined, offlineCopy: false, purpose: undefined, revalidating: false, clientAddress: "198.51.100.4", qrCodeId: null, withinPage: false, backgroundFetch: false };

  async function setup() {
    const { db } = getDb();
    const project = await createProject(db);
    return { db, project, scans: new ScanRecorder(db), recentPageLoads: new RecentPageLoads() };
  }

  async function totals(db: ReturnType<typeof getDb>["db"], projectId: string) {
    const stats = await db.selectFrom("project_stats").select(["total_scans", "unique_scans"]).where("project_id", "=", projectId).executeTakeFirst();
    const rows = await db.selectFrom("scans").select("id").where("project_id", "=", projectId).execute();
    return { rows: rows.length, total: stats?.total_scans ?? 0, unique: stats?.unique_scans ?? 0 };
  }

  it("counts a page load and the track-scan call after it once", async () => {
    const { db, project, scans, recentPageLoads } = await setup();
    const decision = door.decide({ ...visit, cookieHeader: undefined }, { id: project.id, teamIds: [project.ownerId] }, null);
    if (decision.kind !== "counted" || !decision.newViewerId || !decision.scan.viewerFingerprint) throw new Error("expected a new viewer");
    await scans.record(decision.scan);
    recentPageLoads.remember(decision.scan.viewerFingerprint, project.id);

    const cookie = door.viewerCookie(decision.newViewerId).split(";")[0]!;
    const fromScript = { projectId: project.id, qrCodeId: null, viewerFingerprint: "f".repeat(32) };
    expect(await recordScriptedScan({ scans, recentPageLoads, pageDoor: door }, fromScript, { cookieHeader: cookie, userAgent: PHONE })).toBe("already-counted");
    expect(await totals(db, project.id)).toEqual({ rows: 1, total: 1, unique: 1 });

    // A later call from the same browser is another load of the same viewer: a scan, not a viewer.
    expect(await recordScriptedScan({ scans, recentPageLoads, pageDoor: door }, fromScript, { cookieHeader: cookie, userAgent: PHONE })).toBe("counted");
    expect(await totals(db, project.id)).toEqual({ rows: 2, total: 2, unique: 1 });
  });

  it("counts a spec client's call without the cookie by the fingerprint it sends", async () => {
    const { db, project, scans, recentPageLoads } = await setup();
    const scan = { projectId: project.id, qrCodeId: null, viewerFingerprint: "a".repeat(32) };
    expect(await recordScriptedScan({ scans, recentPageLoads, pageDoor: door }, scan, { cookieHeader: undefined, userAgent: PHONE })).toBe("counted");
    expect(await recordScriptedScan({ scans, recentPageLoads, pageDoor: door }, { ...scan, projectId: "no-such-project" }, { cookieHeader: undefined, userAgent: PHONE })).toBe("unknown-project");
    expect(await totals(db, project.id)).toEqual({ rows: 1, total: 1, unique: 1 });
  });

  it("counts a browser without storage as the viewer first seen from its address today", async () => {
    const { db, project, scans } = await setup();
    const pitch = { id: project.id, teamIds: [project.ownerId] };
    const first = door.decide({ ...visit, cookieHeader: undefined }, pitch, null);
    const reload = door.decide({ ...visit, cookieHeader: undefined, revalidating: true }, pitch, null);
    // Another phone of the same model behind the same address, first visit: a new viewer.
    const neighbour = door.decide({ ...visit, cookieHeader: undefined }, pitch, null);
    for (const decision of [first, reload, reload, neighbour]) {
      if (decision.kind !== "counted") throw new Error(decision.kind);
      await scans.record(decision.scan);
    }
    expect(await totals(db, project.id)).toEqual({ rows: 4, total: 4, unique: 2 });
  });

  it("tallies excluded loads per reason", async () => {
    const { db, project, scans } = await setup();
    scans.exclude(project.id, "preview");
    scans.exclude(project.id, "preview");
    scans.exclude(project.id, "bot");
    scans.exclude(project.id, "owner");
    await scans.idle();
    const stats = await db
      .selectFrom("project_stats")
      .select(["excluded_bots", "excluded_previews", "excluded_prefetches", "excluded_owner_views", "total_scans"])
      .where("project_id", "=", project.id)
      .executeTakeFirstOrThrow();
    expect(stats).toEqual({ excluded_bots: 1, excluded_previews: 2, excluded_prefetches: 0, excluded_owner_views: 1, total_scans: 0 });
  });
});
