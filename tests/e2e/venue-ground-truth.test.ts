// A scripted room, and the founder's analytics page checked against the script's own truth.
// 30 identical phones behind one address scan three QR codes (some reload), link previews and crawlers fetch
// the page, one phone has JavaScript off, one leaves at first paint on Slow 3G, one blocks site data and
// reloads twice, the founder previews; then 40 phones (the 30 and 10 arriving by the plain link) send their
// forms. Every figure on the analytics page must equal the script's count.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CHROMIUM_PATH, DESKTOP, PHONE, PLAYWRIGHT_CHROMIUM_FLAGS } from "../support/chromium.js";
import { insertProject, readThePage, visitorUserAgent } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { setUpAppInBrowser } from "../support/e2e-app";
import { FASTEST_HUMAN_FORM_MS } from "~/modules/rate-limit/rate-limit.server";

const VENUE_ADDRESS = "10.66.0.1";
const CODES = ["Hall A", "Hall B", "Stage"] as const;
type Code = (typeof CODES)[number];
type Row = { scans: number; viewers: number; people: number; intros: number; subscribers: number; signals: number };

const e2e = setUpAppInBrowser();

describe("a venue's numbers on the founder's screen", () => {
  it("equal the truth of a scripted room", { timeout: 480_000 }, async () => {
    // The founder, signed in (signing up and in through the page is sign-up's and sign-in's subject), and a fresh
    // project of theirs with three QR codes.
    const email = uniqueEmail("venue");
    const { context: founderContext, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: DESKTOP });
    const founder = await founderContext.newPage();
    const project = await insertProject(e2e.app.dataDir, {
      title: "Venue Truth",
      ownerId,
      tiers: [{ label: "Angel", min: 5_000, max: 25_000 }],
      qrCodes: CODES.map((label) => ({ label, eventTag: label === "Stage" ? "Keynote" : undefined })),
    });
    const codeIds = new Map<Code, string>(CODES.map((label, index) => [label, project.qrCodeIds[index]!]));
    const tierId = project.tierIds[0]!;
    const pitch = `${e2e.app.url}/pitch/${project.slug}`;
    const urlOf = (code: Code | "Direct") => (code === "Direct" ? pitch : `${pitch}?qr=${codeIds.get(code)}`);

    const truth = new Map<Code | "Direct", Row>([...CODES, "Direct" as const].map((code) => [code, { scans: 0, viewers: 0, people: 0, intros: 0, subscribers: 0, signals: 0 }]));
    const count = (code: Code | "Direct", change: Partial<Row>) => {
      const row = truth.get(code)!;
      for (const [key, value] of Object.entries(change) as [keyof Row, number][]) row[key] += value;
    };
    const phone = () =>
      e2e.browser.newContext({
        viewport: PHONE,
        userAgent: visitorUserAgent(e2e.browser),
        locale: "en-US",
        timezoneId: "America/New_York",
        extraHTTPHeaders: { "x-forwarded-for": VENUE_ADDRESS },
      });
    const visit = async (page: Page, url: string) => {
      await page.goto(url, { waitUntil: "domcontentloaded" });
    };

    // 30 identical phones across the three codes; every third of the first ten reloads.
    const phones: { context: BrowserContext; page: Page; code: Code | "Direct" }[] = [];
    for (let index = 0; index < 30; index += 1) {
      const context = await phone();
      const page = await context.newPage();
      const code = CODES[index % 3]!;
      await visit(page, urlOf(code));
      count(code, { scans: 1, viewers: 1 });
      if (index < 10) {
        await page.reload({ waitUntil: "domcontentloaded" });
        count(code, { scans: 1 });
      }
      phones.push({ context, page, code });
    }

    // Link previews and crawlers: nothing.
    for (const userAgent of [
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "facebookexternalhit/1.1 Facebot Twitterbot/1.0",
      "WhatsApp/2.23.20.0 A",
      "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
      "TelegramBot (like TwitterBot)",
      "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    ]) {
      expect((await fetch(urlOf("Hall A"), { headers: { "user-agent": userAgent, "x-forwarded-for": VENUE_ADDRESS } })).status).toBe(200);
    }

    // JavaScript off, through Hall A.
    const noScript = await e2e.browser.newContext({ viewport: PHONE, userAgent: visitorUserAgent(e2e.browser), javaScriptEnabled: false, extraHTTPHeaders: { "x-forwarded-for": VENUE_ADDRESS } });
    await visit(await noScript.newPage(), urlOf("Hall A"));
    count("Hall A", { scans: 1, viewers: 1 });
    await noScript.close();

    // Gone at first paint on Slow 3G, through Hall B.
    const glance = await phone();
    const glancePage = await glance.newPage();
    const cdp = await glance.newCDPSession(glancePage);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 2000, downloadThroughput: (500 * 1024 * 0.8) / 8, uploadThroughput: (500 * 1024 * 0.8) / 8 });
    await glancePage.goto(urlOf("Hall B"), { waitUntil: "domcontentloaded", timeout: 60_000 });
    await glance.close();
    count("Hall B", { scans: 1, viewers: 1 });

    // A browser that blocks site data, through the Stage code, reloaded twice.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-venue-blocked-"));
    fs.mkdirSync(path.join(profile, "Default"));
    fs.writeFileSync(path.join(profile, "Default", "Preferences"), JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }));
    const blocked = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: PLAYWRIGHT_CHROMIUM_FLAGS,
      viewport: PHONE,
      userAgent: visitorUserAgent(e2e.browser),
      extraHTTPHeaders: { "x-forwarded-for": "10.66.0.2" },
    });
    const blockedPage = await blocked.newPage();
    await visit(blockedPage, urlOf("Stage"));
    await blockedPage.reload({ waitUntil: "domcontentloaded" });
    await blockedPage.reload({ waitUntil: "domcontentloaded" });
    await blocked.close();
    fs.rmSync(profile, { recursive: true, force: true });
    count("Stage", { scans: 3, viewers: 1 });

    // The founder previews their own page: nothing.
    await founder.goto(urlOf("Hall A"));

    // 10 more phones arrive by the plain link; then 40 people send their forms, as a page without JavaScript posts them.
    for (let index = 0; index < 10; index += 1) {
      const context = await phone();
      const page = await context.newPage();
      await visit(page, urlOf("Direct"));
      count("Direct", { scans: 1, viewers: 1 });
      phones.push({ context, page, code: "Direct" });
    }
    const post = (context: BrowserContext, fields: Record<string, string>) =>
      context.request.post(pitch, { form: fields, headers: { origin: e2e.app.url }, maxRedirects: 0 });
    // Each has read the pitch for a while before sending (decision 50 holds a form sent seconds after opening it).
    await readThePage(pitch, e2e.app.dataDir);
    // One of them reloads the page just before sending: a reload is no new reading for the speed check (decision 96).
    const reloader = phones[4]!;
    await reloader.page.reload({ waitUntil: "domcontentloaded" });
    count(reloader.code, { scans: 1 });
    for (const [index, { context, code }] of phones.entries()) {
      const person = { name: `Guest ${index}`, email: `guest${index}@example.com` };
      const kind = index % 4;
      if (kind === 0 || kind === 3) {
        expect((await post(context, { intent: "intro", ...person, note: "Let's talk" })).status()).toBe(302);
        count(code, { intros: 1 });
      }
      if (kind === 1 || kind === 3) {
        expect((await post(context, { intent: "subscribe", ...person, consent: "on" })).status()).toBe(302);
        count(code, { subscribers: 1 });
      }
      if (kind === 2 || kind === 3) {
        expect((await post(context, { intent: "signal", ...person, tierId, showName: "on" })).status()).toBe(302);
        count(code, { signals: 1 });
      }
      count(code, { people: 1 });
    }

    const rows = [...truth.values()];
    const total = (key: keyof Row) => rows.reduce((sum, row) => sum + row[key], 0);
    const people = total("people");
    const viewers = total("viewers");
    await expect.poll(() => readAnalytics(founder, project.id), { timeout: 15_000 }).toEqual({
      totalScans: String(total("scans")),
      uniqueViewers: `${viewers} unique viewers`,
      peopleActed: `${people} people acted: ${((people / viewers) * 100).toFixed(1)}% of ${viewers} unique viewers.`,
      held: "0 held for review",
      funnel: Object.fromEntries(
        [...truth].map(([code, row]) => [
          code === "Direct" ? "Direct link" : code,
          // Nobody in this room saves the pitch to their list ("Saved by" 0).
          [row.scans, row.viewers, row.people, row.intros, row.subscribers, row.signals, 0].map(String).concat(`${((row.people / row.viewers) * 100).toFixed(1)}%`),
        ]),
      ),
      excluded: [
        "1 bots and crawlers",
        "6 link previews (chat apps, social networks)",
        "0 fetches by an app, not a browser (QR scanner apps checking the link)",
        "0 prefetches by a browser (counted as a scan if the page is then shown)",
        "1 views by your team: you and every member, signed in, or on a device where one of you signed in or opened a booth link",
      ],
    });

    // One phone reloads the page and sends 30 forms within seconds: all 30 held for review (decision 50), none
    // refused, none counted, and the founder sees how many wait.
    const before = await readAnalytics(founder, project.id);
    // A phone of its own, which sent nothing before (a form of the same browser in a burst's window is taken back
    // with the burst, decision 95).
    const spammerContext = await phone();
    const spammer = { context: spammerContext, page: await spammerContext.newPage() };
    await visit(spammer.page, urlOf("Direct"));
    await spammer.page.reload({ waitUntil: "domcontentloaded" });
    const statuses: number[] = [];
    for (let index = 0; index < 30; index += 1) {
      statuses.push((await post(spammer.context, { intent: "subscribe", name: "Spam", email: `spam${index}@example.com`, consent: "on" })).status());
    }
    expect(statuses.filter((status) => status === 302)).toHaveLength(30);
    await expect.poll(async () => (await readAnalytics(founder, project.id)).held, { timeout: 10_000 }).toBe("30 held for review");
    const after = await readAnalytics(founder, project.id);
    // The spammer's own page loads make it a viewer; the people who acted are as they were.
    const acted = (text: string | undefined) => text?.split(":")[0];
    expect(acted(after.peopleActed)).toBe(acted(before.peopleActed));
    // Its loads are scans and a viewer; people, intros, subscribers, signals and saves are as they were.
    expect(Object.fromEntries(Object.entries(after.funnel).map(([code, row]) => [code, row.slice(2, 7)]))).toEqual(
      Object.fromEntries(Object.entries(before.funnel).map(([code, row]) => [code, row.slice(2, 7)])),
    );

    // Another script waits out the speed check after its reload, then sends 30 forms: its first three were answered
    // as accepted, and are taken back with the burst they began (decision 95): 60 wait, still nothing counted.
    const waiterContext = await phone();
    const waiter = { context: waiterContext, page: await waiterContext.newPage() };
    await visit(waiter.page, urlOf("Direct"));
    // The script's own wait, which is what makes it hard to catch: past the 3 s a person needs at least.
    await new Promise((resolve) => setTimeout(resolve, FASTEST_HUMAN_FORM_MS + 1_000));
    const waited: number[] = [];
    for (let index = 0; index < 30; index += 1) {
      waited.push((await post(waiter.context, { intent: "subscribe", name: "Patient Spam", email: `patient${index}@example.com`, consent: "on" })).status());
    }
    expect(waited.filter((status) => status === 302)).toHaveLength(30);
    await expect.poll(async () => (await readAnalytics(founder, project.id)).held, { timeout: 10_000 }).toBe("60 held for review");
    const afterWaiting = await readAnalytics(founder, project.id);
    expect(acted(afterWaiting.peopleActed)).toBe(acted(before.peopleActed));
    expect(Object.fromEntries(Object.entries(afterWaiting.funnel).map(([code, row]) => [code, row.slice(2, 7)]))).toEqual(
      Object.fromEntries(Object.entries(before.funnel).map(([code, row]) => [code, row.slice(2, 7)])),
    );

    await Promise.all([...phones, spammer, waiter].map(({ context }) => context.close()));
    await founderContext.close();
  });
});

async function readAnalytics(page: Page, projectId: string) {
  await page.goto(`${e2e.app.url}/project/${projectId}/analytics`);
  const summary = page.getByRole("region", { name: "Summary" });
  const card = (label: string) => summary.locator("article").filter({ has: page.getByRole("heading", { name: label, exact: true }) });
  const scansCard = card("Total Scans");
  const funnel = page.getByRole("region", { name: "Funnel by Event" }).locator("table tbody tr");
  const funnelRows: Record<string, string[]> = {};
  for (const row of await funnel.all()) {
    const label = (await row.locator("th span.font-medium").first().textContent())?.trim() ?? "";
    funnelRows[label] = (await row.locator("td").allTextContents()).map((text) => text.trim());
  }
  const howWeCount = page.getByRole("region", { name: "How we count" });
  return {
    totalScans: (await scansCard.locator("p").first().textContent())?.trim(),
    uniqueViewers: (await scansCard.locator("p").nth(1).textContent())?.trim(),
    peopleActed: (await card("Conversion Rate").locator("p").last().textContent())?.replace(/\s+/g, " ").trim(),
    held: (await howWeCount.getByRole("link", { name: /held for review/ }).textContent())?.trim(),
    funnel: funnelRows,
    excluded: (await howWeCount.locator("ul li").allTextContents()).map((text) => text.replace(/\s+/g, " ").trim()),
  };
}
