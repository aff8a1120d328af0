import { beforeAll, expect, it } from "vitest";
import { countProjectActivitySince, loadProjectAnalytics } from "~/modules/analytics/analytics.server";
import type { Auth } from "~/modules/auth/auth.server";
import { saveFounderTimeZone } from "~/modules/auth/founder-time-zone.server";
import { signIn, signUp } from "~/modules/auth/gateway.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { timeZoneSchema, TIME_ZONE_INVALID_MESSAGE } from "~/modules/auth/time-zone-form";
import { boothDayStart } from "~/modules/booth/booth.server";
import { validate } from "~/modules/forms/validation";
import { recordScans } from "~/modules/scans/scans.server";
import { describeEachDialect, type TestDatabase } from "../support/databases";
import { createProject } from "../support/fixtures";
import { browserRequest, cookieHeader, createTestAuth, freshIp, TEST_AUTH_CONFIG } from "../support/test-auth";

const at = (iso: string) => new Date(iso);

async function founderIn(database: TestDatabase, timeZone: string | null) {
  const project = await createProject(database.db);
  await database.db.updateTable("users").set({ time_zone: timeZone }).where("id", "=", project.ownerId).execute();
  const code = `clk${project.id.slice(0, 8)}`;
  await database.db.insertInto("qr_codes").values({ id: code, project_id: project.id, label: "Booth", event_tag: null }).execute();
  return { project, code };
}

async function scanAt(database: TestDatabase, projectId: string, code: string, iso: string) {
  await recordScans(database.db, [{ projectId, qrCodeId: code, viewerFingerprint: `viewer-${iso}` }], undefined, at(iso));
}

describeEachDialect("the founder's clock", (getDb, dialect) => {
  let auth: Auth;
  beforeAll(() => {
    auth = createTestAuth(getDb(), dialect);
  });

  it("keeps the zone the browser sent at sign-up, drops one that is not a zone, and every session reads it", async () => {
    const db = getDb().db;
    const kolkata = `kolkata-${crypto.randomUUID()}@example.com`;
    await signUp(auth, db, TEST_AUTH_CONFIG, browserRequest(freshIp()), { email: kolkata, password: "secret123", name: "", invitation: "", timeZone: "Asia/Kolkata" });
    const stored = await db.selectFrom("users").select(["id", "time_zone"]).where("email", "=", kolkata).executeTakeFirstOrThrow();
    expect(stored.time_zone).toBe("Asia/Kolkata");
    const signedIn = await signIn(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { email: kolkata, password: "secret123" });
    const cookie = cookieHeader(signedIn.setCookies);
    expect(await getSessionUser(auth, browserRequest(freshIp(), cookie))).toMatchObject({ timeZone: "Asia/Kolkata", timeZoneSet: true });

    const odd = `odd-${crypto.randomUUID()}@example.com`;
    await signUp(auth, db, TEST_AUTH_CONFIG, browserRequest(freshIp()), { email: odd, password: "secret123", name: "", invitation: "", timeZone: "Mars/Olympus_Mons" });
    expect((await db.selectFrom("users").select("time_zone").where("email", "=", odd).executeTakeFirstOrThrow()).time_zone).toBeNull();
    const oddSession = cookieHeader((await signIn(auth, TEST_AUTH_CONFIG, browserRequest(freshIp()), { email: odd, password: "secret123" })).setCookies);
    expect(await getSessionUser(auth, browserRequest(freshIp(), oddSession))).toMatchObject({ timeZone: "UTC", timeZoneSet: false });

    // Changed on My Projects: the next request reads the new zone.
    const checked = validate(timeZoneSchema, { timeZone: "America/Denver" });
    if (!checked.ok) throw new Error("America/Denver should be accepted");
    await saveFounderTimeZone(db, stored.id, checked.data);
    expect(await getSessionUser(auth, browserRequest(freshIp(), cookie))).toMatchObject({ timeZone: "America/Denver", timeZoneSet: true });
  });

  it("refuses a zone that is not on the IANA list with the form's message", () => {
    for (const timeZone of ["Mars/Olympus_Mons", "+05:30", ""]) {
      const checked = validate(timeZoneSchema, { timeZone });
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.fieldErrors.timeZone).toBe(TIME_ZONE_INVALID_MESSAGE);
    }
  });

  it("splits Kolkata's days at 18:30 UTC and its hours on the half hour, from the stored scans", async () => {
    const database = getDb();
    const { project, code } = await founderIn(database, "Asia/Kolkata");
    // Days: 23:50 and 00:10 in Kolkata, ten minutes either side of its midnight (both 18:xx UTC, one UTC hour).
    await scanAt(database, project.id, code, "2026-11-20T18:20:00.000Z");
    await scanAt(database, project.id, code, "2026-11-20T18:40:00.000Z");
    await scanAt(database, project.id, code, "2026-11-20T18:45:00.000Z");
    // Hours: 14:40 and 15:10 in Kolkata, both in the 09:00 UTC hour.
    await scanAt(database, project.id, code, "2026-11-26T09:10:00.000Z");
    await scanAt(database, project.id, code, "2026-11-26T09:40:00.000Z");
    const { scansOverTime, totalScans } = await loadProjectAnalytics(database.db, project.ownerId, project.id, at("2026-11-26T12:00:00.000Z"));
    expect(totalScans).toBe(5);
    expect(scansOverTime.daily[0]!.points).toEqual([
      { at: "2026-11-19T18:30:00.000Z", scans: 1 },
      { at: "2026-11-20T18:30:00.000Z", scans: 2 },
    ]);
    expect(scansOverTime.hourly[0]!.points).toEqual([
      { at: "2026-11-26T08:30:00.000Z", scans: 1 },
      { at: "2026-11-26T09:30:00.000Z", scans: 1 },
    ]);
  });

  it("makes Denver's fall-back day one 25-hour bucket and keeps whole hours whole", async () => {
    const database = getDb();
    const { project, code } = await founderIn(database, "America/Denver");
    // 1 November 2026: 00:30 MDT and 23:30 MST are both that day; 00:30 MST on 2 November is the next.
    await scanAt(database, project.id, code, "2026-11-01T06:30:00.000Z");
    await scanAt(database, project.id, code, "2026-11-02T06:30:00.000Z");
    await scanAt(database, project.id, code, "2026-11-02T07:30:00.000Z");
    // 8 March 2026 (spring forward, 23 hours): 23:30 MDT is still that day.
    await scanAt(database, project.id, code, "2026-03-09T05:30:00.000Z");
    const { scansOverTime } = await loadProjectAnalytics(database.db, project.ownerId, project.id, at("2026-11-26T12:00:00.000Z"));
    expect(scansOverTime.daily[0]!.points).toEqual([
      { at: "2026-11-01T06:00:00.000Z", scans: 2 },
      { at: "2026-11-02T07:00:00.000Z", scans: 1 },
    ]);
    // 90 days back is the history's limit: March is beyond it.
    const march = await loadProjectAnalytics(database.db, project.ownerId, project.id, at("2026-03-20T12:00:00.000Z"));
    expect(march.scansOverTime.daily[0]!.points).toEqual([{ at: "2026-03-08T07:00:00.000Z", scans: 1 }]);
  });

  it("shows an owner without a zone UTC days", async () => {
    const database = getDb();
    const { project, code } = await founderIn(database, null);
    await scanAt(database, project.id, code, "2026-11-20T18:40:00.000Z");
    const { scansOverTime } = await loadProjectAnalytics(database.db, project.ownerId, project.id, at("2026-11-26T12:00:00.000Z"));
    expect(scansOverTime.daily[0]!.points).toEqual([{ at: "2026-11-20T00:00:00.000Z", scans: 1 }]);
  });

  it("starts the booth's today at the owner's midnight and counts its scans exactly from there", async () => {
    const database = getDb();
    const { project, code } = await founderIn(database, "Asia/Kolkata");
    await scanAt(database, project.id, code, "2026-11-26T18:20:00.000Z");
    await scanAt(database, project.id, code, "2026-11-26T18:40:00.000Z");
    const today = await boothDayStart(database.db, project.id, at("2026-11-27T01:00:00.000Z"));
    expect(today.toISOString()).toBe("2026-11-26T18:30:00.000Z");
    expect(await countProjectActivitySince(database.db, project.id, today)).toMatchObject({ scans: 1 });
  });
});
