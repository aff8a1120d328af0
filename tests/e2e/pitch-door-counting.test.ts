// Scans counted at the door (issue 10, decision 15): the server records a pitch page load when it serves it,
// before any script runs. Each test makes its own project and reads the server's SQLite file for the truth.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CHROMIUM_PATH, PHONE, PLAYWRIGHT_CHROMIUM_FLAGS } from "../support/chromium.js";
import { insertProject, visitorUserAgent, withWritableDatabase } from "../support/pitch-e2e";
import { signInThroughPage, signUpThroughPage, uniqueEmail } from "../support/sign-up";
import { setUpAppInBrowser } from "../support/e2e-app";
import { nextClientAddress, waitForHydration } from "./support";

const e2e = setUpAppInBrowser();

type Counts = { scans: number; viewers: number; totalScans: number; uniqueScans: number; bots: number; previews: number; prefetches: number; ownerViews: number };

function counts(projectId: string): Counts {
  const rows = e2e.db.prepare("select count(*) as n, count(distinct viewer_fingerprint) as viewers from scans where project_id = ?").get(projectId) as { n: number; viewers: number };
  const stats = e2e.db
    .prepare(
      "select total_scans, unique_scans, excluded_bots, excluded_previews, excluded_prefetches, excluded_owner_views from project_stats where project_id = ?",
    )
    .get(projectId) as Record<string, number> | undefined;
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

function newProject(title: string) {
  const project = insertProject(e2e.app.dataDir, { title });
  const qrId = `door${project.id.slice(0, 6)}`;
  withWritableDatabase(e2e.app.dataDir, (rw) => {
    rw.prepare("insert into qr_codes (id, project_id, label, event_tag) values (?, ?, ?, ?)").run(qrId, project.id, "Booth", "door-expo");
  });
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
    const project = newProject("Door no-JS");
    const context = await e2e.browser.newContext({ ...samePhone(), javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(project.url);
      await page.getByRole("heading", { name: "Door no-JS" }).first().waitFor();
      await expect.poll(() => counts(project.id), { timeout: 10_000 }).toEqual({ ...NONE, scans: 1, viewers: 1, totalScans: 1, uniqueScans: 1 });
      const perCode = e2e.db.prepare("select total_scans, unique_scans from qr_codes where id = ?").get(project.qrId);
      expect(perCode).toEqual({ total_scans: 1, unique_scans: 1 });
    } finally {
      await context.close();
    }
  });

  it("counts a visitor who leaves at DOMContentLoaded on Slow 3G", async () => {
    const project = newProject("Door quick glance");
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
    const project = newProject("Door twenty phones");
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
    const project = newProject("Door signed in");
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
    const project = newProject("Door no cookies");
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
    const project = newProject("Door previews");
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
    const project = newProject("Door owner");
    const context = await e2e.browser.newContext({ ...samePhone(), extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() } });
    try {
      const page = await context.newPage();
      const email = uniqueEmail("door-owner");
      await signUpThroughPage(page, e2e.app.url, email);
      await signInThroughPage(page, e2e.app.url, email);
      withWritableDatabase(e2e.app.dataDir, (rw) => {
        rw.prepare("update projects set owner_id = (select id from users where email = ?) where id = ?").run(email, project.id);
      });
      await page.goto(project.url);
      await page.getByRole("heading", { name: "Door owner" }).first().waitFor();
      await page.reload();
      await expect.poll(() => counts(project.id), { timeout: 10_000 }).toEqual({ ...NONE, ownerViews: 2 });
    } finally {
      await context.close();
    }
  });
});
