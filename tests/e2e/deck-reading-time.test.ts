// In Chromium at 412 px, a scripted reader reads a four-page deck on a fake clock: 8, 15 and 4 s on pages 1-3, the tab
// hidden for 30 s, then page 4 left idle for 2 minutes, and the tab closed. What the server recorded matches what
// happened within a second, and page 4 holds only its first 30 s (the idle cut-off). The same reader offline for part
// of it records the same, once; the owner's and a staff member's reading is no reader's. Beats sent by hand that are
// malformed, replayed, for another project's view, a page past the end or a replaced deck move nothing.
import fs from "node:fs";
import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { DeckAudience } from "~/db/schema";
import { DECK_READING_PATH, READING_IDLE_MS, READING_REQUESTS_PER_MINUTE } from "~/modules/deck-reading/reading-rules";
import { newViewId } from "../support/deck-reading";
import { setTabVisible, showPlainDeck } from "../support/deck-reading-e2e";
import { newClientContext, waitForHydration } from "../support/clients";
import { setUpAppInBrowser } from "../support/e2e-app";
import { insertProject, visitorUserAgent } from "../support/pitch-e2e";
import { signedInUser, uniqueEmail } from "../support/sign-up";
import { withWritableDb } from "../support/test-db";

const e2e = setUpAppInBrowser();
const START = new Date("2026-12-03T18:00:00Z");
const READER = { width: 412, height: 915 };

type Shown = { id: string; slug: string; deckId: string; ownerId: string };
let founder: { id: string; cookie: string };

beforeAll(async () => {
  fs.mkdirSync("tmp/deck-reading", { recursive: true });
  founder = await signedInUser(e2e.app, uniqueEmail("reading"));
});

async function newDeckProject(title: string): Promise<Shown> {
  const project = await insertProject(e2e.app.dataDir, { title, ownerId: founder.id, status: "published" });
  const deckId = await showPlainDeck(e2e.app, { id: project.id, ownerId: founder.id }, 4);
  return { ...project, deckId, ownerId: founder.id };
}

function phone(options: BrowserContextOptions = {}): Promise<{ context: BrowserContext }> {
  return newClientContext(e2e.browser, {
    viewport: READER,
    deviceScaleFactor: 2.6,
    isMobile: true,
    hasTouch: true,
    reducedMotion: "reduce",
    userAgent: visitorUserAgent(e2e.browser),
    ...options,
  });
}

/** Opens the pitch page on a paused fake clock and brings the deck on screen: page 1's time starts now. */
async function openDeck(context: BrowserContext, project: Shown, views = 1, signedIn = false): Promise<Page> {
  const page = await context.newPage();
  await page.clock.install({ time: START });
  await page.goto(`${e2e.app.url}/pitch/${project.slug}`);
  // The page's script starts after its first frame (the team's page is React's): the clock stops once it has.
  if (signedIn) await waitForHydration(page);
  else await page.locator("html[data-enhanced=true]").waitFor({ state: "attached" });
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
  await page.locator("[data-deck-reader]").scrollIntoViewIfNeeded();
  await page.locator("[data-deck-counter]").filter({ hasText: "1 / 4" }).waitFor();
  // The opening beat says the deck is open.
  await vi.waitFor(async () => expect(await viewsOf(project.id)).toHaveLength(views), { timeout: 10_000 });
  return page;
}

/**
 * Next, by a tap: the reader turns the page at once, and the strip's scroll (the browser's, not the page's clock)
 * runs to its end in real time while the fake clock stands; then one frame of the page's clock lets the reader look.
 */
async function next(page: Page, to: number) {
  const scrolled = page.evaluate(() => new Promise<void>((resolve) => document.querySelector("[data-deck-pages]")!.addEventListener("scrollend", () => resolve(), { once: true })));
  await page.getByRole("button", { name: "Next page" }).tap();
  await page.locator("[data-deck-counter]").filter({ hasText: `${to} / 4` }).waitFor();
  await scrolled;
  await page.clock.runFor(16);
}

const viewsOf = (projectId: string) => e2e.db.selectFrom("deck_views").select(["id", "audience", "ms", "pages"]).where("project_id", "=", projectId).execute();

/** Seconds per page over a project's reader views (one decimal). */
async function secondsPerPage(projectId: string, audience: DeckAudience = "reader"): Promise<Record<number, number>> {
  const rows = await e2e.db
    .selectFrom("deck_view_pages")
    .innerJoin("deck_views", "deck_views.id", "deck_view_pages.view_id")
    .select(["deck_view_pages.page_number", "deck_view_pages.ms"])
    .where("deck_views.project_id", "=", projectId)
    .where("deck_views.audience", "=", audience)
    .execute();
  const seconds: Record<number, number> = {};
  for (const row of rows) seconds[row.page_number] = Math.round(((seconds[row.page_number] ?? 0) * 1000 + row.ms) / 100) / 10;
  return seconds;
}

/** The scripted reading: 8, 15 and 4 s on pages 1-3, the tab hidden 30 s, page 4 idle for 2 minutes, the tab closed. */
async function readTheScript(page: Page, offline?: { context: BrowserContext }) {
  await page.clock.runFor(8_000);
  await next(page, 2);
  if (offline) await offline.context.setOffline(true);
  await page.clock.runFor(15_000);
  await next(page, 3);
  await page.clock.runFor(4_000);
  await setTabVisible(page, false);
  await page.clock.runFor(30_000);
  await setTabVisible(page, true);
  if (offline) await offline.context.setOffline(false);
  await next(page, 4);
  await page.clock.runFor(120_000);
  await page.close({ runBeforeUnload: true });
}

/** The rows of the Deck table on the founder's Analytics, as the founder's phone shows them (page, readers, median, total). */
async function founderSees(projectId: string): Promise<string[][]> {
  const { context } = await newClientContext(e2e.browser, { viewport: { width: 390, height: 844 } });
  try {
    await context.addCookies(founder.cookie.split("; ").map((pair) => ({ name: pair.split("=")[0]!, value: pair.slice(pair.indexOf("=") + 1), url: e2e.app.url })));
    const page = await context.newPage();
    await page.goto(`${e2e.app.url}/project/${projectId}/analytics`);
    const rows = page.locator("table[data-deck-pages] tbody tr");
    await rows.first().waitFor();
    await page.locator("[data-deck-reading]").screenshot({ path: "tmp/deck-reading/founder-analytics-390.png" });
    return await rows.evaluateAll((found) => found.map((row) => [...row.children].map((cell) => (cell.textContent ?? "").replace(/\s+/g, " ").trim())));
  } finally {
    await context.close();
  }
}

const TRUTH = { 1: 8, 2: 15, 3: 4, 4: READING_IDLE_MS / 1000 };

/** Waits for the beats still on their way, until what was recorded matches the truth within a second. */
async function expectTheTruth(projectId: string): Promise<Record<number, number>> {
  let recorded: Record<number, number> = {};
  await vi.waitFor(
    async () => {
      recorded = await secondsPerPage(projectId);
      for (const [number, seconds] of Object.entries(TRUTH)) expect(Math.abs((recorded[Number(number)] ?? 0) - seconds), `page ${number}`).toBeLessThanOrEqual(1);
    },
    { timeout: 10_000, interval: 200 },
  );
  return recorded;
}

describe("a scripted reader's time", () => {
  it("is recorded per page within a second of what happened, idle time cut at 30 s", async () => {
    const project = await newDeckProject("Reading Harbor");
    const { context } = await phone();
    try {
      const page = await openDeck(context, project);
      await readTheScript(page);
      const recorded = await expectTheTruth(project.id);
      expect(recorded[4]).toBeLessThanOrEqual(30);
      const views = await viewsOf(project.id);
      expect(views).toMatchObject([{ audience: "reader", pages: 4 }]);
      // The founder's Analytics say the same, page by page.
      const shown = await founderSees(project.id);
      console.log("scripted reader: truth", TRUTH, "recorded", recorded, "the founder's table", shown);
      expect(shown).toEqual([
        ["1", "1 100%", "8 s", "8 s"],
        ["2", "1 100%", "15 s", "15 s"],
        ["3", "1 100%", "4 s", "4 s"],
        ["4", "1 100%", "30 s", "30 s"],
      ]);
    } finally {
      await context.close();
    }
  });

  it("is the same, once, when the phone was offline for part of it", async () => {
    const project = await newDeckProject("Reading Offline");
    const { context } = await phone();
    try {
      const page = await openDeck(context, project);
      const failed: string[] = [];
      page.on("requestfailed", (request) => void (request.url().endsWith(DECK_READING_PATH) && failed.push(request.url())));
      await readTheScript(page, { context });
      expect(failed.length).toBeGreaterThan(0);
      const recorded = await expectTheTruth(project.id);
      console.log("scripted reader offline: truth", TRUTH, "recorded", recorded);
      // What the phone kept while offline went when it came back; a second visit sends nothing new.
      const again = await context.newPage();
      await again.goto(`${e2e.app.url}/pitch/${project.slug}`);
      await again.locator("[data-deck-reader]").scrollIntoViewIfNeeded();
      await again.close();
      expect(await secondsPerPage(project.id)).toEqual(recorded);
    } finally {
      await context.close();
    }
  });

  it("is the same when its beats arrive twice and shuffled", async () => {
    const project = await newDeckProject("Reading Shuffled");
    const { context } = await phone();
    try {
      // Every beat the phone sends is held back (the server "fails"), then delivered by hand, twice over, shuffled.
      const held: unknown[] = [];
      await context.route(`**${DECK_READING_PATH}`, async (route) => {
        const body = route.request().postDataJSON() as { beats: unknown[] } | null;
        if (body) held.push(...body.beats);
        await route.fulfill({ status: 503, body: "" });
      });
      const reading = await openDeck(context, project, 0);
      await readTheScript(reading);
      // Nothing was answered, so the phone still keeps every beat it made: those are what is delivered by hand.
      const storage = await context.newPage();
      await storage.goto(`${e2e.app.url}/privacy`);
      const kept = JSON.parse((await storage.evaluate(() => localStorage.getItem("pitchqr-deck-beats"))) ?? "[]") as unknown[];
      await storage.close();
      held.push(...kept);
      const cookie = (await context.cookies()).map((kept) => `${kept.name}=${kept.value}`).join("; ");
      const unique = new Map(held.map((beat) => [JSON.stringify(beat), beat]));
      // Newest first, each one's copy after the one before it: every beat out of order, and each twice.
      const newestFirst = [...unique.values()].reverse();
      const twice = newestFirst.flatMap((beat, index) => [beat, newestFirst[Math.max(0, index - 1)]]).concat(newestFirst.at(-1)!);
      for (let start = 0; start < twice.length; start += 10) {
        const answer = await fetch(`${e2e.app.url}${DECK_READING_PATH}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: e2e.app.url, cookie, "user-agent": visitorUserAgent(e2e.browser) },
          body: JSON.stringify({ beats: twice.slice(start, start + 10) }),
        });
        expect(answer.status).toBe(200);
      }
      const recorded = await expectTheTruth(project.id);
      console.log("scripted reader, beats twice and shuffled: truth", TRUTH, "recorded", recorded);
    } finally {
      await context.close();
    }
  });

  it("is no reader's for the owner signed in, nor for a staff member", async () => {
    const project = await newDeckProject("Reading Team");
    const staff = await signedInUser(e2e.app, uniqueEmail("reading-staff"));
    await withWritableDb(e2e.app, (db) =>
      db.insertInto("project_members").values({ project_id: project.id, user_id: staff.id, role: "staff", created_at: new Date().toISOString() }).execute(),
    );
    for (const [index, member] of [founder, staff].entries()) {
      const { context } = await phone();
      try {
        await context.addCookies(member.cookie.split("; ").map((pair) => ({ name: pair.split("=")[0]!, value: pair.slice(pair.indexOf("=") + 1), url: e2e.app.url })));
        const page = await openDeck(context, project, index + 1, true);
        await page.clock.runFor(6_000);
        await page.close({ runBeforeUnload: true });
      } finally {
        await context.close();
      }
    }
    await vi.waitFor(async () => expect((await viewsOf(project.id)).filter((view) => view.ms > 0)).toHaveLength(2), { timeout: 10_000 });
    expect((await viewsOf(project.id)).map((view) => view.audience)).toEqual(["team", "team"]);
    expect(await secondsPerPage(project.id)).toEqual({});
  });
});

describe("beats sent by hand", () => {
  let project: Shown;
  let cookie: string;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${e2e.app.url}${DECK_READING_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: e2e.app.url, cookie, "user-agent": visitorUserAgent(e2e.browser), "x-forwarded-for": "10.8.0.1", ...headers },
      body: JSON.stringify(body),
    });
  const beat = (overrides: Record<string, unknown> = {}) => ({ project: project.id, deck: project.deckId, view: VIEW, seq: 1, age: 10_000, qr: null, segments: [[1, 0, 10_000]], ...overrides });
  let VIEW: string;

  beforeAll(async () => {
    project = await newDeckProject("Reading By Hand");
    VIEW = newViewId();
    // A viewer cookie, as a phone opening the page gets one.
    const { context } = await phone();
    await (await context.newPage()).goto(`${e2e.app.url}/pitch/${project.slug}`);
    cookie = (await context.cookies()).map((kept) => `${kept.name}=${kept.value}`).join("; ");
    await context.close();
    expect(cookie).toContain("pitchqr_viewer=");
  });

  it("count a beat once, however often it is replayed", async () => {
    expect((await post({ beats: [beat()] })).status).toBe(200);
    for (let replay = 0; replay < 20; replay++) {
      const answer = await post({ beats: Array.from({ length: 5 }, () => beat()) });
      expect(await answer.json()).toEqual({ outcomes: ["duplicate", "duplicate", "duplicate", "duplicate", "duplicate"] });
    }
    expect(await secondsPerPage(project.id)).toEqual({ 1: 10 });
  });

  it("refuse negative, huge and future times, a page past the end, another project's view and a replaced deck, and move nothing", async () => {
    const other = await newDeckProject("Reading Elsewhere");
    const refusals: [unknown, number][] = [
      [beat({ seq: 2, age: 20_000, segments: [[2, -5_000, 20_000]] }), 400],
      [beat({ seq: 3, age: 20_000, segments: [[2, 10_000, 9_000]] }), 400],
      [beat({ seq: 4, age: 400_000, segments: [[2, 10_000, 400_000]] }), 400],
      [beat({ seq: 5, age: 15_000, segments: [[2, 10_000, 20_000]] }), 400],
      [beat({ seq: 6, age: 99 * 3_600_000, segments: [[2, 10_000, 20_000]] }), 400],
      [beat({ seq: 7, age: 20_000, segments: [[5, 10_000, 20_000]] }), 422],
      [beat({ project: other.id, deck: other.deckId, seq: 8 }), 409],
    ];
    for (const [sent, status] of refusals) expect((await post({ beats: [sent] })).status, JSON.stringify(sent)).toBe(status);
    expect((await post("not json")).status).toBe(400);
    await showPlainDeck(e2e.app, project, 4);
    expect((await post({ beats: [beat({ seq: 9, age: 30_000, segments: [[2, 20_000, 30_000]] })] })).status).toBe(409);
    expect(await secondsPerPage(project.id)).toEqual({ 1: 10 });
    expect(await secondsPerPage(other.id)).toEqual({});
  });

  it("from one viewer are refused past the ceiling", async () => {
    const flood = await newDeckProject("Reading Flood");
    const view = newViewId();
    const statuses: number[] = [];
    // Enough that one minute's window holds five too many, even if the requests straddle two windows.
    for (let seq = 0; seq < 2 * READING_REQUESTS_PER_MINUTE + 5; seq++) {
      statuses.push((await post({ beats: [{ project: flood.id, deck: flood.deckId, view, seq, age: seq * 1000 + 1000, qr: null, segments: [[1, seq * 1000, seq * 1000 + 1000]] }] }, { cookie: `${cookie}x` })).status);
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(5);
  });
});

