// The Recognition Wall kept live over Server-Sent Events: a signal made in one browser appears in another
// without a reload, once, at the top; an entry made while a browser was offline arrives once it reconnects.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP } from "../support/chromium.js";
import { insertProject, marker, newVisitor, startCuttableProxy, type CuttableProxy } from "../support/pitch-e2e";
import { setUpAppInBrowser } from "../support/e2e-app";
import { waitForEnhancement } from "./support";

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
    expect(e2e.db.prepare("select count(*) as n from recognition_entries where project_id = ? and display_name = ?").get(project.id, name)).toEqual({ n: 1 });
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
