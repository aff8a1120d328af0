import { describe, expect, it } from "vitest";
import { PageDoor, RecentPageLoads, VIEWER_COOKIE, viewerFingerprintOf, type PageLoadRequest } from "~/modules/scans/page-door.server";
import { preferredEncoding } from "../../server/pitch-page";
import { USER_AGENTS } from "../support/user-agents";

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const project = { id: "project-1", teamIds: ["founder-1", "cofounder-1"] };
const door = new PageDoor({ secret: "x".repeat(32), secureCookie: true });
const visit = (overrides: Partial<PageLoadRequest> = {}): PageLoadRequest => ({
  method: "GET",
  userAgent: PHONE,
  acceptLanguage: "en-GB,en;q=0.9",
  clientHints: undefined,
  offlineCopy: false,
  purpose: undefined,
  cookieHeader: undefined,
  revalidating: false,
  clientAddress: "203.0.113.7",
  qrCodeId: "booth",
  withinPage: false,
  backgroundFetch: false,
  ...overrides,
});

describe("PageDoor.decide", () => {
  it("gives a first-time browser a new viewer id, counted under its hash", () => {
    const decision = door.decide(visit(), project, null);
    if (decision.kind !== "counted") throw new Error(decision.kind);
    expect(decision.newViewerId).toMatch(/^[0-9a-f]{32}$/);
    expect(decision.scan).toMatchObject({ projectId: "project-1", qrCodeId: "booth", viewerFingerprint: viewerFingerprintOf(decision.newViewerId!) });
    expect(door.viewerCookie(decision.newViewerId!)).toMatch(
      new RegExp(`^${VIEWER_COOKIE}=${decision.newViewerId}\\.[A-Za-z0-9_-]{22}; Path=/; Max-Age=63072000; HttpOnly; SameSite=Lax; Secure$`),
    );
  });

  it("counts a returning browser as the viewer its cookie names, and sets no new cookie", () => {
    const id = "0123456789abcdef0123456789abcdef";
    const decision = door.decide(visit({ cookieHeader: `a=b; ${door.viewerCookie(id).split(";")[0]}` }), project, null);
    expect(decision).toMatchObject({ kind: "counted", newViewerId: null, scan: { viewerFingerprint: viewerFingerprintOf(id) } });
  });

  it("ignores a forged cookie value and issues a real id", () => {
    const decision = door.decide(visit({ cookieHeader: `${VIEWER_COOKIE}=not-an-id` }), project, null);
    expect(decision.kind === "counted" && decision.newViewerId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("counts a browser that revalidates a kept page without the cookie by its address hash (storage blocked)", () => {
    const decision = door.decide(visit({ revalidating: true }), project, null, new Date("2026-11-23T10:00:00Z"));
    if (decision.kind !== "counted") throw new Error(decision.kind);
    expect(decision.scan.viewerFingerprint).toBeNull();
    expect(decision.scan.addressHash).toBe(door.addressHash("project-1", "203.0.113.7", PHONE, new Date("2026-11-23T23:59:00Z")));
  });

  it("salts the address hash per day and per project", () => {
    const day = new Date("2026-11-23T10:00:00Z");
    const hash = door.addressHash("project-1", "203.0.113.7", PHONE, day);
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(door.addressHash("project-1", "203.0.113.7", PHONE, new Date("2026-11-24T10:00:00Z"))).not.toBe(hash);
    expect(door.addressHash("project-2", "203.0.113.7", PHONE, day)).not.toBe(hash);
    expect(door.addressHash("project-1", "203.0.113.8", PHONE, day)).not.toBe(hash);
  });

  it.each([
    ["a link preview", { userAgent: "WhatsApp/2.23.20.0 A" }, { kind: "excluded", reason: "preview" }],
    ["iMessage's preview", { userAgent: "facebookexternalhit/1.1 Facebot Twitterbot/1.0" }, { kind: "excluded", reason: "preview" }],
    ["a crawler", { userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" }, { kind: "excluded", reason: "bot" }],
    ["no user agent", { userAgent: undefined }, { kind: "excluded", reason: "bot" }],
    ["a HEAD request", { method: "HEAD" }, { kind: "ignored" }],
    ["a dialog opened without JavaScript", { withinPage: true }, { kind: "ignored" }],
    ["a script's fetch of the page", { backgroundFetch: true }, { kind: "ignored" }],
    ["a service worker keeping an offline copy", { offlineCopy: true }, { kind: "ignored" }],
    ["a bot's service worker keeping an offline copy (tallied once, at its page load)", { offlineCopy: true, userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1)" }, { kind: "ignored" }],
    ["an Android app's own fetch", { userAgent: "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A.240805.005)" }, { kind: "excluded", reason: "app" }],
    ["an iOS app's own fetch", { userAgent: "QRReader/2.3.1 CFNetwork/1494.0.7 Darwin/23.4.0" }, { kind: "excluded", reason: "app" }],
    ["a fetch without Accept-Language", { acceptLanguage: undefined }, { kind: "excluded", reason: "app" }],
    ["Chromium wearing an iPhone's user agent", { clientHints: '"Chromium";v="156", "Not:A-Brand";v="8"' }, { kind: "excluded", reason: "bot" }],
  ] as const)("does not count %s", (_name, overrides, expected) => {
    expect(door.decide(visit(overrides), project, null)).toEqual(expected);
  });

  it("counts every phone browser: Safari before Sec-Fetch, in-app web views, Chrome on iOS and Android, Firefox", () => {
    for (const userAgent of [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 15_8 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6.6 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 330.0.0.0",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
      "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.71 Mobile Safari/537.36",
      "Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0",
    ]) {
      expect(door.decide(visit({ userAgent }), project, null).kind, userAgent).toBe("counted");
    }
    // Chrome on Android sends client hints with an Android user agent: that is what it is.
    expect(door.decide(visit({ userAgent: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36", clientHints: '"Chromium";v="126"' }), project, null).kind).toBe("counted");
  });

  it("counts every browser of the shared table, built into an app or not, with only its coarse labels (decision 67)", () => {
    for (const { userAgent, audience } of USER_AGENTS) {
      const decision = door.decide(visit({ userAgent }), project, null);
      expect(decision.kind === "counted" ? decision.scan.audience : decision, userAgent).toEqual(audience);
    }
    // WhatsApp's own link-preview fetcher names itself first; a page inside WhatsApp ends with the token.
    expect(door.decide(visit({ userAgent: "WhatsApp/2.2343.4 i" }), project, null)).toEqual({ kind: "excluded", reason: "preview" });
  });

  it("gives a prefetched page its viewer id but counts nothing until the page's beacon says it was shown", () => {
    const decision = door.decide(visit({ purpose: "prefetch;prerender" }), project, null);
    expect(decision).toMatchObject({ kind: "speculative", newViewerId: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it("counts a device the team marked as the team's, signed out, for the team's projects only", () => {
    const marked = door.teamDeviceCookie("founder-1", undefined).split(";")[0]!;
    expect(door.decide(visit({ cookieHeader: marked }), project, null)).toEqual({ kind: "excluded", reason: "owner" });
    expect(door.decide(visit({ cookieHeader: marked }), { id: "project-2", teamIds: ["founder-2"] }, null).kind).toBe("counted");
    const both = door.teamDeviceCookie("founder-2", marked).split(";")[0]!;
    expect(door.teamMembersOf(both)).toEqual(["founder-2", "founder-1"]);
    expect(door.teamMembersOf(both.replace("founder-2", "founder-3"))).toEqual([]);
    expect(door.teamDeviceCookie("founder-1", undefined)).toMatch(/; Path=\/; Max-Age=63072000; HttpOnly; SameSite=Lax; Secure$/);
  });

  it("does not count the project's owner or a member, signed in or on a device they marked, but counts another signed-in founder", () => {
    expect(door.decide(visit(), project, "founder-1")).toEqual({ kind: "excluded", reason: "owner" });
    expect(door.decide(visit(), project, "cofounder-1")).toEqual({ kind: "excluded", reason: "owner" });
    const markedByMember = door.teamDeviceCookie("cofounder-1", undefined).split(";")[0]!;
    expect(door.decide(visit({ cookieHeader: markedByMember }), project, null)).toEqual({ kind: "excluded", reason: "owner" });
    expect(door.decide(visit(), project, "founder-2").kind).toBe("counted");
  });
});

describe("background fetches", () => {
  it.each([
    [{ "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" }, false],
    [{ "sec-fetch-mode": "navigate", "sec-fetch-dest": "empty" }, false],
    [{ "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe" }, false],
    [{}, false],
    [{ "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" }, true],
  ] as const)("%j is a background fetch: %s", (headers, expected) => {
    expect(PageDoor.isBackgroundFetch(headers)).toBe(expected);
  });
});

describe("signed viewer cookie", () => {
  const cookieOf = (id: string) => door.viewerCookie(id).split(";")[0]!;
  const forged = "0123456789abcdef0123456789abcdef";

  it("treats a made-up id as no cookie: a new id is issued, and forms do not know the browser by it", () => {
    const decision = door.decide(visit({ cookieHeader: `${VIEWER_COOKIE}=${forged}` }), project, null);
    if (decision.kind !== "counted") throw new Error(decision.kind);
    expect(decision.newViewerId).toMatch(/^[0-9a-f]{32}$/);
    expect(decision.scan.viewerFingerprint).not.toBe(viewerFingerprintOf(forged));
    expect(door.identify("project-1", { cookieHeader: `${VIEWER_COOKIE}=${forged}`, clientAddress: "203.0.113.7", userAgent: PHONE }).viewerFingerprint).toBeNull();
    expect(door.viewerIdFromCookie(`${VIEWER_COOKIE}=${forged}`)).toBeNull();
  });

  it("refuses an id signed with another key or with its signature changed", () => {
    const other = new PageDoor({ secret: "y".repeat(32), secureCookie: true });
    const signedElsewhere = other.viewerCookie(forged).split(";")[0]!;
    expect(door.viewerIdFromCookie(signedElsewhere)).toBeNull();
    const tampered = cookieOf(forged).replace(/.$/, (last) => (last === "A" ? "B" : "A"));
    expect(door.viewerIdFromCookie(tampered)).toBeNull();
    expect(door.viewerIdFromCookie(cookieOf(forged).replace(forged, "f".repeat(32)))).toBeNull();
  });

  it("gives an unsigned id issued before signing one new id, the same for every load until the browser keeps it", () => {
    const legacy = { cookieHeader: `${VIEWER_COOKIE}=${forged}` };
    const first = door.decide(visit(legacy), project, null);
    const again = door.decide(visit({ ...legacy, revalidating: true }), project, null);
    if (first.kind !== "counted" || again.kind !== "counted") throw new Error("expected counted loads");
    expect(first.newViewerId).not.toBe(forged);
    expect(again.newViewerId).toBe(first.newViewerId);
    expect(again.scan.viewerFingerprint).toBe(viewerFingerprintOf(first.newViewerId!));
    const upgraded = door.decide(visit({ cookieHeader: cookieOf(first.newViewerId!) }), project, null);
    expect(upgraded).toMatchObject({ kind: "counted", newViewerId: null, scan: { viewerFingerprint: viewerFingerprintOf(first.newViewerId!) } });
  });
});

describe("viewer cookie", () => {
  it("reads only a well-formed, signed id", () => {
    const signed = door.viewerCookie("0123456789abcdef0123456789abcdef").split(";")[0]!;
    expect(door.viewerIdFromCookie(`a=b; ${signed}; c=d`)).toBe("0123456789abcdef0123456789abcdef");
    expect(door.viewerIdFromCookie(`x${signed}`)).toBeNull();
    expect(door.viewerIdFromCookie(`${VIEWER_COOKIE}=0123`)).toBeNull();
    expect(door.viewerIdFromCookie(undefined)).toBeNull();
  });
});

describe("RecentPageLoads", () => {
  it("lets one script call claim a load counted in the last minute, once", () => {
    const recent = new RecentPageLoads(60_000);
    recent.remember("viewer", "project", 1_000);
    expect(recent.claim("viewer", "other-project", 2_000)).toBe(false);
    expect(recent.claim("viewer", "project", 2_000)).toBe(true);
    expect(recent.claim("viewer", "project", 3_000)).toBe(false);
    recent.remember("viewer", "project", 10_000);
    expect(recent.claim("viewer", "project", 70_000)).toBe(false);
  });

  it("stays bounded", () => {
    const recent = new RecentPageLoads(60_000, 3);
    for (const viewer of ["a", "b", "c", "d"]) recent.remember(viewer, "p", 1_000);
    expect(recent.claim("a", "p", 1_000)).toBe(false);
    expect(recent.claim("d", "p", 1_000)).toBe(true);
  });
});

describe("preferredEncoding", () => {
  it.each([
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip;q=0.5", "gzip"],
    ["identity", null],
    ["*", "br"],
    [undefined, null],
  ] as const)("%s -> %s", (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});
