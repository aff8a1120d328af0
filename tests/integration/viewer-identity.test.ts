// Decision 52: nobody borrows another visitor's identity. A browser without a cookie is
// found by the daily address hash only among viewers whose cookie never came back, through the same source; and a
// load of the plain link by someone who came through a code stays with that code.
import { expect, it } from "vitest";
import { resolveSource } from "~/modules/analytics/sources.server";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { PageDoor, type PageLoadRequest } from "~/modules/scans/page-door.server";
import { ScanRecorder } from "~/modules/scans/scans.server";
import { describeEachDialect } from "../support/databases";
import { createProject } from "../support/fixtures";

const SAME_PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const NAT = "198.51.100.40";

describeEachDialect("viewer identity at the door", (getDb) => {
  const door = new PageDoor({ secret: "integration-secret-0123456789abcdef", secureCookie: false });
  const base: PageLoadRequest = {
    method: "GET",
    userAgent: SAME_PHONE,
    acceptLanguage: "en-US,en;q=0.9",
    clientHints: undefined,
    purpose: undefined,
    cookieHeader: undefined,
    revalidating: false,
    clientAddress: NAT,
    qrCodeId: null,
    withinPage: false,
    backgroundFetch: false,
    offlineCopy: false,
  };

  async function setup() {
    const { db } = getDb();
    const project = await createProject(db);
    const badge = await createQrCode(db, project.ownerId, project.id, { label: "Badge", eventTag: "Demo Day" });
    const stage = await createQrCode(db, project.ownerId, project.id, { label: "Stage", eventTag: "Demo Day" });
    const scans = new ScanRecorder(db);
    const pitch = { id: project.id, teamIds: [project.ownerId] };
    /** One page load as the door decides it, written before the next; returns the cookie the browser got (if any). */
    const load = async (request: Partial<PageLoadRequest>): Promise<string | undefined> => {
      const decision = door.decide({ ...base, ...request }, pitch, null);
      if (decision.kind !== "counted") throw new Error(`expected a counted load, got ${decision.kind}`);
      await scans.record(decision.scan);
      return decision.newViewerId ? door.viewerCookie(decision.newViewerId).split(";")[0] : request.cookieHeader;
    };
    const codeCounts = async () =>
      Object.fromEntries(
        (await db.selectFrom("qr_codes").select(["label", "total_scans", "unique_scans"]).where("project_id", "=", project.id).orderBy("label").execute()).map(
          (row) => [row.label, { scans: Number(row.total_scans), viewers: Number(row.unique_scans) }],
        ),
      );
    const projectCounts = async () => {
      const stats = await db.selectFrom("project_stats").select(["total_scans", "unique_scans"]).where("project_id", "=", project.id).executeTakeFirst();
      const direct = await db.selectFrom("source_stats").select(["scans", "viewers"]).where("project_id", "=", project.id).where("source", "=", "direct").executeTakeFirst();
      return { scans: Number(stats?.total_scans ?? 0), viewers: Number(stats?.unique_scans ?? 0), direct: { scans: Number(direct?.scans ?? 0), viewers: Number(direct?.viewers ?? 0) } };
    };
    const sourceOf = (cookieHeader: string | undefined) => resolveSource(db, project.id, door.identify(project.id, { cookieHeader, clientAddress: NAT, userAgent: SAME_PHONE }));
    return { db, project, badge, stage, load, codeCounts, projectCounts, sourceOf };
  }

  it("a cookie-less browser behind a NAT never becomes a same-model phone that kept its cookie, nor moves its source", async () => {
    const { badge, stage, load, codeCounts, projectCounts, sourceOf } = await setup();
    // Three phones of one model behind the venue's address scan the badge; the first comes back once, with its cookie.
    const phones = [await load({ qrCodeId: badge.id }), await load({ qrCodeId: badge.id }), await load({ qrCodeId: badge.id })];
    await load({ qrCodeId: badge.id, cookieHeader: phones[0], revalidating: true });
    // The same model, same address, but it keeps no cookies: it scans the stage code and reloads twice.
    await load({ qrCodeId: stage.id });
    await load({ qrCodeId: stage.id, revalidating: true });
    await load({ qrCodeId: stage.id, revalidating: true });

    expect(await codeCounts()).toEqual({ Badge: { scans: 4, viewers: 3 }, Stage: { scans: 3, viewers: 1 } });
    expect(await projectCounts()).toEqual({ scans: 7, viewers: 4, direct: { scans: 0, viewers: 0 } });
    // Every badge phone's next intro is still the badge's.
    for (const phone of phones) expect(await sourceOf(phone)).toBe(`qr:${badge.id}`);
  });

  it("a cookie-less reload with no viewer of its own today is a viewer of its own, however often it reloads", async () => {
    const { badge, stage, load, codeCounts, projectCounts } = await setup();
    const phone = await load({ qrCodeId: badge.id });
    await load({ qrCodeId: badge.id, cookieHeader: phone, revalidating: true });
    // A browser that opened the stage code yesterday (another salt) and reloads today, without a cookie.
    await load({ qrCodeId: stage.id, revalidating: true });
    await load({ qrCodeId: stage.id, revalidating: true });
    expect(await codeCounts()).toEqual({ Badge: { scans: 2, viewers: 1 }, Stage: { scans: 2, viewers: 1 } });
    expect(await projectCounts()).toEqual({ scans: 4, viewers: 2, direct: { scans: 0, viewers: 0 } });
  });

  it("a cookie-less reload and the cookie it was given are one viewer; two such phones behind one address stay two", async () => {
    const { badge, load, codeCounts, projectCounts } = await setup();
    // The first try never reached the server; the reload comes with max-age=0 and no cookie, then a later visit with it.
    const phone = await load({ qrCodeId: badge.id, revalidating: true });
    await load({ qrCodeId: badge.id, cookieHeader: phone });
    expect(await codeCounts()).toEqual({ Badge: { scans: 2, viewers: 1 }, Stage: { scans: 0, viewers: 0 } });
    // Another phone of the same model behind the same address opens the plain link the same way: a person of its own.
    const other = await load({ revalidating: true });
    await load({ cookieHeader: other });
    expect(other).not.toBe(phone);
    expect(await projectCounts()).toEqual({ scans: 4, viewers: 2, direct: { scans: 2, viewers: 1 } });
  });

  it("an action without a cookie takes the source the address's cookie-less viewers agree on, else unknown", async () => {
    const { badge, stage, load, sourceOf } = await setup();
    const kept = await load({ qrCodeId: badge.id });
    await load({ qrCodeId: badge.id, cookieHeader: kept, revalidating: true });
    // Only a phone that kept its cookie: the address hash names nobody.
    expect(await sourceOf(undefined)).toBe("unknown");
    await load({ qrCodeId: stage.id });
    expect(await sourceOf(undefined)).toBe(`qr:${stage.id}`);
    // Another phone of the model, through the badge, that has not come back yet: which one acts cannot be known.
    await load({ qrCodeId: badge.id });
    expect(await sourceOf(undefined)).toBe("unknown");
  });

  it("a reload of the plain address after it dropped ?qr= stays with the code that brought the visitor", async () => {
    const { badge, load, codeCounts, projectCounts, sourceOf } = await setup();
    const phone = await load({ qrCodeId: badge.id });
    await load({ cookieHeader: phone, revalidating: true });
    await load({ cookieHeader: phone });
    expect(await codeCounts()).toEqual({ Badge: { scans: 3, viewers: 1 }, Stage: { scans: 0, viewers: 0 } });
    expect(await projectCounts()).toEqual({ scans: 3, viewers: 1, direct: { scans: 0, viewers: 0 } });
    expect(await sourceOf(phone)).toBe(`qr:${badge.id}`);
    // Someone the link was shared with arrives by the plain link: the plain link's, not the event's.
    const friend = await load({ clientAddress: "203.0.113.9" });
    expect(await projectCounts()).toEqual({ scans: 4, viewers: 2, direct: { scans: 1, viewers: 1 } });
    expect(friend).toBeDefined();
  });

  it("tallies an app's own fetch and the team's views apart, never as scans", async () => {
    const { db, project } = await setup();
    const scans = new ScanRecorder(db);
    const pitch = { id: project.id, teamIds: [project.ownerId] };
    const team = door.teamDeviceCookie(project.ownerId, undefined).split(";")[0];
    for (const request of [
      { userAgent: "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A.240805.005)", acceptLanguage: undefined },
      { userAgent: "QRReader/2.3.1 CFNetwork/1494.0.7 Darwin/23.4.0" },
      { cookieHeader: team },
    ]) {
      const decision = door.decide({ ...base, ...request }, pitch, null);
      if (decision.kind !== "excluded") throw new Error(decision.kind);
      scans.exclude(project.id, decision.reason);
    }
    await scans.idle();
    const stats = await db
      .selectFrom("project_stats")
      .select(["excluded_app_fetches", "excluded_owner_views", "excluded_bots", "total_scans"])
      .where("project_id", "=", project.id)
      .executeTakeFirstOrThrow();
    expect(stats).toEqual({ excluded_app_fetches: 2, excluded_owner_views: 1, excluded_bots: 0, total_scans: 0 });
  });
});
