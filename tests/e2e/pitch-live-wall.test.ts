// The Recognition Wall kept live over Server-Sent Events: a signal made in one browser appears in another
// without a reload, once, at the top; an entry made while a browser was offline arrives once it reconnects.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { insertProject, marker, newVisitor, startCuttableProxy, type CuttableProxy } from "../support/pitch-e2e";
import { setUpAppInBrowser } from "../support/e2e-app";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { waitForEnhancement, waitForHydration } from "../support/clients";
import { countRows } from "../support/test-db";

const e2e = setUpAppInBrowser();
/** Browser B reaches the app through this proxy, so its connection can be cut. */
let proxy: CuttableProxy;

/** This file's own published project, with an Angel tier and a wall that has entries on it. */
let project: { id: string; slug: string };

beforeAll(async () => {
  proxy = await startCuttableProxy(e2e.app.port);
  project = await insertProject(e2e.app.dataDir, {
    title: "Live Wall Labs",
    tiers: [{ label: "Angel", min: 5_000, max: 25_000 }],
    wall: [{ displayName: "Early Backer" }, { displayName: "Pilot Clinic", type: "Pilot" }],
  });
});

afterAll(async () => {
  await proxy?.close();
});

/** The names on the wall, top to bottom. */
const wallNames = (page: Page) =>
  page
    .getByRole("list", { name: "Wall entries, newest first" })
    .locator(":scope > li")
    .evaluateAll((items) => items.map((item) => item.querySelector("span.font-semibold")?.textContent ?? ""));

const liveBadge = (page: Page) => page.getByRole("region", { name: "Recognition Wall" }).getByText("Live", { exact: true });

/** Signals interest with the name shown on the wall, through the page's own dialog. */
async function signalPublicly(page: Page, name: string): Promise<void> {
  await page.getByRole("main").getByRole("link", { name: "Signal Interest" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Signal Interest" });
  await dialog.locator("label", { hasText: "Angel" }).first().click();
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Email", { exact: true }).fill(`${marker("live")}@example.com`);
  await dialog.getByRole("button", { name: "Signal Interest" }).click();
  await page.getByText("Signal of interest recorded!").first().waitFor();
  await dialog.waitFor({ state: "hidden" });
}

describe("the live Recognition Wall", () => {
  let a: { context: BrowserContext; page: Page };
  let b: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    a = await newVisitor(e2e.browser, { viewport: DESKTOP });
    b = await newVisitor(e2e.browser, { viewport: DESKTOP });
    for (const [{ page }, base] of [
      [a, e2e.app.url],
      [b, proxy.url],
    ] as const) {
      await page.goto(`${base}/pitch/${project.slug}`);
      await waitForEnhancement(page);
      await liveBadge(page).waitFor();
    }
    // Marks B's document: it must still be there at the end (no reload).
    await b.page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  });

  afterAll(async () => {
    await a?.context.close();
    await b?.context.close();
  });

  it("shows a signal made in another browser at the top, exactly once, without a reload", async () => {
    const before = await wallNames(b.page);
    const name = marker("Live Backer ");
    await signalPublicly(a.page, name);

    await expect.poll(async () => (await wallNames(b.page))[0], { timeout: 10_000 }).toBe(name);
    const after = await wallNames(b.page);
    expect(after.filter((entry) => entry === name)).toHaveLength(1);
    expect(after.slice(1)).toEqual(before.slice(0, after.length - 1));
    expect(await b.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it("delivers an entry made while the browser was offline once it reconnects, exactly once", async () => {
    // B loses its network: the open stream is reset, and new requests fail until it is back.
    await b.context.setOffline(true);
    proxy.cut();
    // The stream noticed: the Live badge goes away while it retries.
    await liveBadge(b.page).waitFor({ state: "hidden", timeout: 10_000 });

    const name = marker("Offline Backer ");
    await signalPublicly(a.page, name);
    expect(await countRows(e2e.db.selectFrom("recognition_entries").where("project_id", "=", project.id).where("display_name", "=", name))).toBe(1);
    expect(await wallNames(b.page)).not.toContain(name);

    proxy.restore();
    await b.context.setOffline(false);
    // Reconnection waits 1, 2, 5, then 10 s.
    await expect.poll(async () => (await wallNames(b.page))[0], { timeout: 15_000, interval: 250 }).toBe(name);
    await liveBadge(b.page).waitFor({ timeout: 15_000 });

    const names = await wallNames(b.page);
    expect(names.filter((entry) => entry === name)).toHaveLength(1);
    // Every name on the wall once (the earlier live entry was not sent again on reconnect).
    expect(new Set(names).size).toBe(names.length);
    expect(await b.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  }, 60_000);
});

/** The Live dot's animation: how many pings it was given, and whether it is still running. */
const livePing = (page: Page) =>
  page.evaluate(() => {
    const ping = document.querySelector<HTMLElement>("[data-live-wall] [data-live-ping]");
    const [animation] = ping?.getAnimations() ?? [];
    return { found: Boolean(ping), pings: animation?.effect?.getComputedTiming().iterations ?? null, running: animation?.playState === "running" };
  });

/** Lets the dot's current pings end at once, as they would after three seconds. */
const finishPing = (page: Page) => page.evaluate(() => document.querySelector<HTMLElement>("[data-live-wall] [data-live-ping]")?.getAnimations().forEach((animation) => animation.finish()));

describe("the Live dot (decision 76)", () => {
  it("pings three times when the wall goes live and again for each new entry, then rests, for visitors and for the owner", async () => {
    const email = uniqueEmail("live-owner");
    const { context: owner, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE, reducedMotion: "no-preference" });
    const own = await insertProject(e2e.app.dataDir, { title: "Own Live Labs", ownerId, tiers: [{ label: "Angel", min: 5_000, max: 25_000 }], wall: [{ displayName: "First Backer" }] });
    const visitor = await newVisitor(e2e.browser, { viewport: PHONE, reducedMotion: "no-preference" });
    const signer = await newVisitor(e2e.browser, { viewport: DESKTOP });
    try {
      const ownerPage = await owner.newPage();
      await ownerPage.goto(`${e2e.app.url}/pitch/${own.slug}`);
      await waitForHydration(ownerPage);
      await visitor.page.goto(`${e2e.app.url}/pitch/${own.slug}`);
      await waitForEnhancement(visitor.page);
      for (const page of [visitor.page, ownerPage]) {
        await liveBadge(page).waitFor();
        expect(await livePing(page)).toEqual({ found: true, pings: 3, running: true });
        await finishPing(page);
        expect(await livePing(page)).toEqual({ found: true, pings: null, running: false });
      }

      await signer.page.goto(`${e2e.app.url}/pitch/${own.slug}`);
      await waitForEnhancement(signer.page);
      const name = marker("Pinged Backer ");
      await signalPublicly(signer.page, name);
      for (const page of [visitor.page, ownerPage]) {
        await expect.poll(async () => (await wallNames(page))[0], { timeout: 10_000 }).toBe(name);
        expect(await livePing(page)).toEqual({ found: true, pings: 3, running: true });
      }
    } finally {
      await owner.close();
      await visitor.context.close();
      await signer.context.close();
    }
  }, 60_000);
});
