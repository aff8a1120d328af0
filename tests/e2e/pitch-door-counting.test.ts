// Scans counted at the door (decision 15): the server records a pitch page load when it serves it,
// before any script runs. Each test makes its own project and reads the server's SQLite file for the truth.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Locator } from "playwright-core";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "~/db/schema";
import { CHROMIUM_PATH, DESKTOP, PHONE, PLAYWRIGHT_CHROMIUM_FLAGS } from "../support/chromium.js";
import { insertProject, visitorUserAgent } from "../support/pitch-e2e";
import { signedInContext, signInThroughPage, signUpThroughPage, uniqueEmail } from "../support/sign-up";
import { USER_AGENTS } from "../support/user-agents";
import { axeViolations } from "../support/axe";
import { setUpAppInBrowser } from "../support/e2e-app";
import { collectPageErrors, nextClientAddress, waitForHydration } from "../support/clients";
import { countRows, tableColumns, userIdByEmail, withWritableDb } from "../support/test-db";

const e2e = setUpAppInBrowser();

type Counts = { scans: number; viewers: number; totalScans: number; uniqueScans: number; bots: number; previews: number; prefetches: number; ownerViews: number };

async function counts(projectId: string): Promise<Counts> {
  const rows = await e2e.db
    .selectFrom("scans")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.count<number>("viewer_fingerprint").distinct().as("viewers")])
    .where("project_id", "=", projectId)
    .executeTakeFirstOrThrow();
  const stats = await e2e.db
    .selectFrom("project_stats")
    .select(["total_scans", "unique_scans", "excluded_bots", "excluded_previews", "excluded_prefetches", "excluded_owner_views"])
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  return {
    scans: rows.n,
    viewers: rows.viewers,
    totalScans: stats?.total_scans ?? 0,
    uniqueScans: stats?.unique_scans ?? 0,
    bots: stats?.excluded_bots ?? 0,
    previews: stats?.excluded_previews ?? 0,
    prefetches: stats?.excluded_prefetches ?? 0,
    ownerViews: stats?.excluded_owner_views ?? 0,
  };
}

const NONE: Counts = { scans: 0, viewers: 0, totalScans: 0, uniqueScans: 0, bots: 0, previews: 0, prefetches: 0, ownerViews: 0 };

async function newProject(title: string) {
  const project = await insertProject(e2e.app.dataDir, { title, qrCodes: [{ label: "Booth", eventTag: "door-expo" }] });
  const qrId = project.qrCodeIds[0]!;
  return { ...project, url: `${e2e.app.url}/pitch/${project.slug}?qr=${qrId}`, qrId };
}

/** One phone model, language and time zone: what a venue full of the same phone looks like to the server. */
function samePhone(): Parameters<Browser["newContext"]>[0] {
  return {
    viewport: PHONE,
    userAgent: visitorUserAgent(e2e.browser),
    locale: "en-US",
    timezoneId: "Europe/Berlin",
    extraHTTPHeaders: { "x-forwarded-for": "10.77.0.1" },
  };
}

describe("a page load is counted by the server that serves it", () => {
  it("counts a visitor with JavaScript disabled: one scan, one viewer", async () => {
    const project = await newProject("Door no-JS");
    const context = await e2e.browser.newContext({ ...samePhone(), javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(project.url);
      await page.getByRole("heading", { name: "Door no-JS" }).first().waitFor();
      await expect.poll(() => counts(project.id), { timeout: 10_000 }).toEqual({ ...NONE, scans: 1, viewers: 1, totalScans: 1, uniqueScans: 1 });
      const perCode = await e2e.db.selectFrom("qr_codes").select(["total_scans", "unique_scans"]).where("id", "=", project.qrId).executeTakeFirst();
      expect(perCode).toEqual({ total_scans: 1, unique_scans: 1 });
    } finally {
      await context.close();
    }
  });

  it("counts a visitor who leaves at DOMContentLoaded on Slow 3G", async () => {
    const project = await newProject("Door quick glance");
    const context = await e2e.browser.newContext(samePhone());
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    // DevTools' "Slow 3G" preset.
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 2000, downloadThroughput: (500 * 1024 * 0.8) / 8, uploadThroughput: (500 * 1024 * 0.8) / 8 });
    await page.goto(project.url, { waitUntil: "domcontentloaded", timeout: 60_000 });
    await context.close();
    await expect.poll(() => counts(project.id), { timeout: 10_000 }).toEqual({ ...NONE, scans: 1, viewers: 1, totalScans: 1, uniqueScans: 1 });
  });

  it("tells 20 identical phones behind one address apart, and counts their refreshes as scans, not viewers", { timeout: 180_000 }, async () => {
    const project = await newProject("Door twenty phones");
    const contexts = await Promise.all(Array.from({ length: 20 }, () => e2e.browser.newContext(samePhone())));
    try {
      const pages = await Promise.all(contexts.map((context) => context.newPage()));
      for (const page of pages) await page.goto(project.url, { waitUntil: "domcontentloaded" });
      await expect.poll(() => counts(project.id), { timeout: 10_000 }).toEqual({ ...NONE, scans: 20, viewers: 20, totalScans: 20, uniqueScans: 20 });
      for (const page of pages) await page.reload({ waitUntil: "domcontentloaded" });
      await expect.poll(() => counts(project.id), { timeout: 10_000 }).toEqual({ ...NONE, scans: 40, viewers: 20, totalScans: 40, uniqueScans: 20 });
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });

  it("counts a signed-in visitor's React page once per load, at the door: the page reports nothing another instance could count again", async () => {
    const project = await newProject("Door signed in");
    const context = await e2e.browser.newContext({ ...samePhone(), extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() } });
    try {
      const page = await context.newPage();
      const email = uniqueEmail("door-visitor");
      await signUpThroughPage(page, e2e.app.url, email);
      await signInThroughPage(page, e2e.app.url, email);
      const trackScanCalls: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/api/functions/track-scan") trackScanCalls.push(request.url());
      });
      await page.goto(project.url);
      await page.getByRole("heading", { name: "Door signed in" }).first().waitFor();
      await waitForHydration(page);
      await page.reload();
      await page.getByRole("heading", { name: "Door signed in" }).first().waitFor();
      await waitForHydration(page);
      await expect.poll(() => counts(project.id), { timeout: 10_000 }).toMatchObject({ scans: 2, viewers: 1, totalScans: 2, uniqueScans: 1 });
      // Every count came from the door, whichever instance a balancer sends a script's call to.
      expect(trackScanCalls).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("counts a browser that blocks site data as one viewer however often it reloads", async () => {
    const project = await newProject("Door no cookies");
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-blocked-"));
    fs.mkdirSync(path.join(profile, "Default"));
    // Chromium's own setting "Don't allow sites to save data", as a visitor would set it.
    fs.writeFileSync(path.join(profile, "Default", "Preferences"), JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }));
    let context: BrowserContext | undefined;
    try {
      context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: PLAYWRIGHT_CHROMIUM_FLAGS,
        ...samePhone(),
        extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() },
      });
      const page = await context.newPage();
      await page.goto(project.url);
      await page.reload();
      await page.reload();
      expect(await context.cookies()).toEqual([]);
      await expect.poll(() => counts(project.id), { timeout: 10_000 }).toEqual({ ...NONE, scans: 3, viewers: 1, totalScans: 3, uniqueScans: 1 });
    } finally {
      await context?.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });
  it("counts a visitor whose first load failed offline, who reloaded online and came back later, as one viewer", async () => {
    const project = await newProject("Door venue Wi-Fi");
    const context = await e2e.browser.newContext({ ...samePhone(), extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() } });
    try {
      const page = await context.newPage();
      await context.setOffline(true);
      await expect(page.goto(project.url)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
      await context.setOffline(false);
      await page.reload();
      await page.getByRole("heading", { name: "Door venue Wi-Fi" }).first().waitFor();
      const later = await context.newPage();
      await later.goto(project.url);
      await later.getByRole("heading", { name: "Door venue Wi-Fi" }).first().waitFor();
      await expect.poll(() => counts(project.id), { timeout: 10_000 }).toEqual({ ...NONE, scans: 2, viewers: 1, totalScans: 2, uniqueScans: 1 });
      expect(await e2e.db.selectFrom("qr_codes").select(["total_scans", "unique_scans"]).where("id", "=", project.qrId).executeTakeFirst()).toEqual({ total_scans: 2, unique_scans: 1 });
    } finally {
      await context.close();
    }
  });
});

describe("page loads that are not visitors", () => {
  const PREVIEWS = [
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "Slackbot 1.0 (+https://api.slack.com/robots)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "Twitterbot/1.0",
    "WhatsApp/2.23.20.0 A",
    "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
    "TelegramBot (like TwitterBot)",
    "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    "facebookexternalhit/1.1 Facebot Twitterbot/1.0",
  ];
  const CRAWLERS = [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
  ];

  it("counts no link preview, crawler, prefetch or HEAD request, and tallies each exclusion", async () => {
    const project = await newProject("Door previews");
    const get = (headers: Record<string, string>, method = "GET") => fetch(project.url, { method, headers: { "x-forwarded-for": nextClientAddress(), ...headers } });
    for (const userAgent of PREVIEWS) expect((await get({ "user-agent": userAgent })).status).toBe(200);
    for (const userAgent of CRAWLERS) expect((await get({ "user-agent": userAgent })).status).toBe(200);
    const phone = visitorUserAgent(e2e.browser);
    expect((await get({ "user-agent": phone, "sec-purpose": "prefetch" })).status).toBe(200);
    expect((await get({ "user-agent": phone, purpose: "prefetch" })).status).toBe(200);
    expect((await get({ "user-agent": phone }, "HEAD")).status).toBe(200);
    await expect
      .poll(() => counts(project.id), { timeout: 10_000 })
      .toEqual({ ...NONE, previews: PREVIEWS.length, bots: CRAWLERS.length, prefetches: 2 });
  });

  it("counts no view of the project's own founder, signed in", async () => {
    const project = await newProject("Door owner");
    const context = await e2e.browser.newContext({ ...samePhone(), extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() } });
    try {
      const page = await context.newPage();
      const email = uniqueEmail("door-owner");
      await signUpThroughPage(page, e2e.app.url, email);
      await signInThroughPage(page, e2e.app.url, email);
      const ownerId = await userIdByEmail(e2e.db, email);
      await withWritableDb(e2e.app, (rw) => rw.updateTable("projects").set({ owner_id: ownerId }).where("id", "=", project.id).execute());
      await page.goto(project.url);
      await page.getByRole("heading", { name: "Door owner" }).first().waitFor();
      await page.reload();
      await expect.poll(() => counts(project.id), { timeout: 10_000 }).toEqual({ ...NONE, ownerViews: 2 });
    } finally {
      await context.close();
    }
  });

  it("counts no view of a co-founder, signed in, nor of their device after they sign out", async () => {
    const project = await newProject("Door co-founder");
    const context = await e2e.browser.newContext({ ...samePhone(), extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() } });
    try {
      const page = await context.newPage();
      const email = uniqueEmail("door-cofounder");
      await signUpThroughPage(page, e2e.app.url, email);
      await signInThroughPage(page, e2e.app.url, email);
      const userId = await userIdByEmail(e2e.db, email);
      await withWritableDb(e2e.app, (rw) =>
        rw.insertInto("project_members").values({ project_id: project.id, user_id: userId, role: "co-founder", created_at: new Date().toISOString() }).execute(),
      );
      await page.goto(project.url);
      await page.getByRole("heading", { name: "Door co-founder" }).first().waitFor();
      await page.reload();
      // Nor through the page's own scan call, and their form sent at once is no script's: their loads are no reading.
      const tracked = await context.request.post(`${e2e.app.url}/api/functions/track-scan`, { data: { projectId: project.id, qrCodeId: project.qrId }, headers: { origin: e2e.app.url } });
      expect(await tracked.json()).toMatchObject({ success: true, counted: false });
      const intro = await context.request.post(`${e2e.app.url}/pitch/${project.slug}`, {
        form: { intent: "intro", name: "Co Founder", email: "cofounder-test@example.com", note: "Testing our own form" },
        headers: { origin: e2e.app.url },
        maxRedirects: 0,
      });
      expect(intro.status()).toBe(302);
      expect(await countRows(e2e.db.selectFrom("held_submissions").where("project_id", "=", project.id))).toBe(0);
      // Signed out, the device keeps the mark sign-in gave it: the cached page's door knows it as the team's.
      const teamMark = (await context.cookies()).filter((cookie) => cookie.name === "pitchqr_team");
      expect(teamMark).toHaveLength(1);
      await context.clearCookies();
      await context.addCookies(teamMark);
      await page.goto(project.url);
      await page.getByRole("heading", { name: "Door co-founder" }).first().waitFor();
      await expect.poll(() => counts(project.id), { timeout: 10_000 }).toEqual({ ...NONE, ownerViews: 3 });
    } finally {
      await context.close();
    }
  });
});

/** A page load as a phone's browser sends it, from `address` (the test server trusts X-Forwarded-For from loopback). */
function openAs(url: string, userAgent: string, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, {
      headers: { "user-agent": userAgent, "accept-language": "en-US,en;q=0.9", accept: "text/html", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document", "x-forwarded-for": address },
    });
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
  });
}

describe("how and when people scanned (decision 67)", () => {
  it("shows the founder each code's devices, browsers, in-app browsers and hours, on a phone and a computer, with no address stored", { timeout: 120_000 }, async () => {
    const email = uniqueEmail("audience");
    // CSP bypassed only so the test can inject axe (as the accessibility sweeps do).
    const { context: founder, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE, bypassCSP: true });
    await withWritableDb(e2e.app, (rw) => rw.updateTable("users").set({ time_zone: "Asia/Kolkata" }).where("id", "=", ownerId).execute());
    const project = await insertProject(e2e.app.dataDir, { title: "Audience expo", ownerId, qrCodes: [{ label: "Booth", eventTag: "demoday" }, { label: "LinkedIn post" }] });
    const [booth, post] = project.qrCodeIds as [string, string];
    const pitchUrl = (qr: string) => `${e2e.app.url}/pitch/${project.slug}?qr=${qr}`;
    const visits = [
      ...USER_AGENTS.filter((entry) => !entry.audience.inApp).map((entry) => [booth, entry.userAgent] as const),
      ...USER_AGENTS.filter((entry) => entry.audience.inApp === "LinkedIn").flatMap((entry) => [[post, entry.userAgent] as const, [post, entry.userAgent] as const]),
      ...USER_AGENTS.filter((entry) => entry.audience.inApp === "WhatsApp" || entry.audience.inApp === "Instagram").map((entry) => [post, entry.userAgent] as const),
    ];
    for (const [index, [qr, userAgent]] of visits.entries()) expect(await openAs(pitchUrl(qr), userAgent, index % 2 ? "2001:db8::77" : "203.0.113.77")).toBe(200);
    await expect
      .poll(async () => (await e2e.db.selectFrom("project_stats").select("total_scans").where("project_id", "=", project.id).executeTakeFirstOrThrow()).total_scans)
      .toBe(visits.length);

    const page = await founder.newPage();
    const errors = collectPageErrors(page);
    try {
      await page.goto(`${e2e.app.url}/project/${project.id}/analytics`);
      await waitForHydration(page);
      const section = page.getByRole("region", { name: "How and when people scanned" });
      await section.getByText(`${visits.length} scans described`).waitFor();
      await screenshot(section, "scan-audience-project-390");
      await section.getByRole("link", { name: /^LinkedIn post/ }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get("audience")).toBe(`qr:${post}`);
      // The whole project's list also names LinkedIn, and the URL may change a frame before the code's figures are
      // drawn: wait for the code's own shares rather than for a name both views show.
      const apps = section.getByRole("region", { name: "In-app browser" });
      await expect.poll(() => apps.textContent()).toMatch(/LinkedIn57% · 4.*Instagram29% · 2.*WhatsApp14% · 1/);
      expect(await section.getByRole("region", { name: "Device" }).textContent()).toMatch(/Android57% · 4.*iOS43% · 3/);
      // Kolkata is UTC+5:30: each hour of the chart runs from :30 to :30, and the page says so.
      expect(await section.getByRole("region", { name: "Hour of day" }).textContent()).toContain("In your time zone, Asia/Kolkata. Scans are counted by the hour in UTC, so each hour here runs from :30 to :30.");
      await screenshot(section, "scan-audience-code-390");
      expect(await axeViolations(page)).toEqual([]);
      await page.setViewportSize(DESKTOP);
      await section.getByText("Every hour").click();
      await screenshot(section, "scan-audience-code-1280");
      expect(await axeViolations(page)).toEqual([]);
      // Nobody acted: the funnel names no best event.
      await page.getByText("No one has acted yet.").waitFor();
      expect(errors).toEqual([]);
    } finally {
      await founder.close();
    }

    // Neither address nor any user agent sent is in any text column of the server's database.
    const needles = ["203.0.113.77", "2001:db8::77", "2001:db8::/64", ...visits.map(([, userAgent]) => userAgent)];
    const holding: string[] = [];
    for (const { table, column, dataType } of await tableColumns(e2e.db, { withInternalKyselyTables: true })) {
      if (dataType && !/TEXT|CHAR|CLOB|JSON/i.test(dataType)) continue;
      const hit = await e2e.db
        .selectFrom(table as keyof Database)
        .select(sql.lit(1).as("hit"))
        .where((eb) => eb.or(needles.map((needle) => eb(eb.fn<number>("instr", [eb.cast(sql.ref(column), "text"), eb.val(needle)]), ">", 0))))
        .limit(1)
        .executeTakeFirst();
      if (hit) holding.push(`${table}.${column}`);
    }
    expect(holding).toEqual([]);
  });
});

/** Phone and desktop pictures of the section, to look at (not compared). */
async function screenshot(section: Locator, name: string): Promise<void> {
  fs.mkdirSync("tmp/screenshots", { recursive: true });
  const page = section.page();
  // Scrolled to the top, the section's box is in page coordinates and the sticky header stays above it.
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await section.boundingBox();
  await page.screenshot({ path: `tmp/screenshots/${name}.png`, fullPage: true, ...(box ? { clip: box } : {}) });
}
